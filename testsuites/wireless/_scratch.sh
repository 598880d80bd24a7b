set -x
IP=/usr/bin/ip
for n in ap0 sta0; do
  $IP netns add $n
  hwsimctl new --name $n --no-vif
  iw phy $n set netns name $n
  $IP netns exec $n iw phy $n interface add $n type managed
  $IP netns exec $n $IP link set lo up
done
$IP link set hwsim0 up
mkdir -p /run/hostapd /run/wpa_supplicant /tmp/a
cat > /tmp/a/ap.conf <<EOT
interface=ap0
driver=nl80211
ctrl_interface=/run/hostapd
hw_mode=g
channel=1
ssid=test
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=12345678
EOT
cat > /tmp/a/sta.conf <<EOT
ctrl_interface=/run/wpa_supplicant
network={
  ssid="test"
  psk="12345678"
}
EOT
tcpdump -i hwsim0 -U -w /tmp/a/air.pcap 2>/tmp/a/tcpdump.log & tp=$!
$IP netns exec ap0 hostapd -dd -t -f /tmp/a/ap.log /tmp/a/ap.conf > /tmp/a/ap.out 2>&1 & ap=$!
wpactl -p /run/hostapd -i ap0 -w 10 -P $ap wait -T -s STATUS state=ENABLED AP-ENABLED
$IP netns exec sta0 wpa_supplicant -i sta0 -D nl80211 -c /tmp/a/sta.conf -dd -t -f /tmp/a/sta.log > /tmp/a/sta.out 2>&1 & sta=$!
wpactl -i sta0 -w 10 -P $sta wait -T -s STATUS wpa_state=COMPLETED CTRL-EVENT-CONNECTED
$IP netns exec ap0 $IP addr add 10.0.0.1/24 dev ap0
$IP netns exec sta0 $IP addr add 10.0.0.2/24 dev sta0
$IP netns exec sta0 ping -c 3 10.0.0.1
cat /proc/uptime
wpactl -i sta0 STATUS
kill $ap; wait $ap; echo ap-rc=$?
kill $sta; wait $sta; echo sta-rc=$?
kill $tp; wait $tp
cat /tmp/a/tcpdump.log
tcpdump -r /tmp/a/air.pcap -n 2>/dev/null | head -30
tcpdump -r /tmp/a/air.pcap -n 2>/dev/null | wc -l
$IP netns exec ap0 hwsimctl list
hwsimctl list
tail -5 /tmp/a/ap.log
cat /proc/uptime
