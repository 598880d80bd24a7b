#!/bin/sh
test_description='SAE variants: hash-to-element, anti-clogging, groups, PMKSA caching, SAE-PK'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# hostapd reads SAE-PK passwords only when built with CONFIG_SAE_PK.
test_lazy_prereq CONFIG_SAE_PK 'grep -q "SAE-PK" /usr/sbin/hostapd'

# sae_ap NAME EXTRA...: a WPA3-Personal AP, EXTRA lines added.
sae_ap () {
	sae__n=$1
	shift
	wl_net_ap "$sae__n" sae umlrun-sae "dragonfly rules" "$@"
}

# sae_sta NAME EXTRA...: a station of it, EXTRA lines in its network block.
sae_sta () {
	wl__x=$1
	shift
	{
		echo "sae_pwe=${SAE_PWE:-0}" &&
		echo "network={" &&
		printf '\t%s\n' "ssid=\"umlrun-sae\"" key_mgmt=SAE ieee80211w=2 \
			"sae_password=\"dragonfly rules\"" "$@" &&
		echo "}"
	} >sae_sta.conf &&
	wl_sta "$wl__x" sae_sta.conf
}

sae_ping () {
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

test_expect_success 'hash-to-element (sae_pwe=1): the commit carries the H2E status code' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	sae_ap ap0 sae_pwe=1 &&
	SAE_PWE=1 sae_sta sta0 &&
	wl_connected sta0 &&
	# Status 126 (SAE_HASH_TO_ELEMENT) in both commits, and the PT
	# derived from the password and SSID on both sides.
	grep -q "SAE: Derive PT - group 19" "$(wl_log ap0)" &&
	grep -q "SAE: Derive PT - group 19" "$(wl_log sta0)" &&
	grep -q "auth_transaction=1 status_code=126" "$(wl_log ap0)" &&
	test "$(wl_status sta0 sae_h2e)" = 1 &&
	sae_ping
'

test_expect_success 'an H2E-only AP is skipped by a station that only hunts and pecks' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	sae_ap ap0 sae_pwe=1 &&
	SAE_PWE=0 sae_sta sta0 &&
	wl_wait sta0 -t 30 CTRL-EVENT-NETWORK-NOT-FOUND >/dev/null &&
	grep -q "SAE H2E disabled" "$(wl_log sta0)" &&
	wl_air_lacks "SA:$(wl_addr sta0) Assoc Request"
'

test_expect_success 'anti-clogging: the AP asks for a token, the station commits again with it' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# Threshold 0: every SAE commit is answered with a token request.
	sae_ap ap0 sae_anti_clogging_threshold=0 &&
	sae_sta sta0 &&
	wl_connected sta0 &&
	grep -q "auth_transaction=1 status_code=76" "$(wl_log sta0)" &&
	grep -q "SAE: Anti-clogging token" "$(wl_log sta0)" &&
	grep -q "SAE: Request anti-clogging token from" "$(wl_log ap0)" &&
	sae_ping
'

test_expect_success 'a group the AP refuses (77) makes the station try its next one' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	sae_ap ap0 "sae_groups=20" &&
	{
		echo "sae_groups=19 20" &&
		echo "network={" &&
		printf "\t%s\n" "ssid=\"umlrun-sae\"" key_mgmt=SAE ieee80211w=2 \
			"sae_password=\"dragonfly rules\"" &&
		echo "}"
	} >sta.conf &&
	wl_sta sta0 sta.conf &&
	wl_connected sta0 &&
	grep -q "auth_transaction=1 status_code=77" "$(wl_log sta0)" &&
	test "$(wl_status sta0 sae_group)" = 20 &&
	sae_ping
'

test_expect_success 'PMKSA caching: the second connection skips SAE (open authentication, PMKID)' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	sae_ap ap0 &&
	sae_sta sta0 &&
	wl_connected sta0 &&
	wl_wait sta0 -t 10 -c DISCONNECT CTRL-EVENT-DISCONNECTED >/dev/null &&
	wl_wait sta0 -t 30 -c RECONNECT CTRL-EVENT-CONNECTED >/dev/null &&
	# One SAE exchange in all; the reconnection used the cached PMK.
	test $(grep -c "SAE: State Committed -> Confirmed" "$(wl_log ap0)") = 1 &&
	grep -q "PMKSA caching was used" "$(wl_log sta0)" &&
	sae_ping &&
	wl_air_has "SA:$(wl_addr sta0) Authentication (Open System)-1"
'

test_expect_success CONFIG_SAE_PK 'SAE-PK: the station checks the AP key against the password' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# The SAE-PK test vector of hostap (tests/hwsim/test_sae_pk.py).
	wl_net_ap ap0 sae "SAE-PK test" "dwxm-zv66-p5ue|pk=431ff8322f93b9dc50ded9f3d14ace22:MHcCAQEEIAJIGlfnteonDb7rQyP/SGQjwzrZAnfrXIm4280VWajYoAoGCCqGSM49AwEHoUQDQgAEeRkstKQV+FSAMqBayqFknn2nAQsdsh/MhdX6tiHOTAFin/sUMFRMyspPtIu7YvlKdsexhI0jPVhaYZn1jKWhZg==" &&
	wl_net_sta sta0 sae "SAE-PK test" dwxm-zv66-p5ue &&
	wl_connected sta0 &&
	grep -q "SAE-PK: Valid SAE-PK signature" "$(wl_log sta0)"
'

test_done
