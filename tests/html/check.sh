#!/bin/sh
# The HTML report, checked in a real headless browser (Debian's chromium).
#
# Makes a real run (a pass, a failure, a kernel panic, and suites/report's
# test with HTML in its titles and artifacts to link), loads the run's
# report.html in chromium, and checks the DOM chromium built from it: one
# row per test with its verdict, one chart bar group per test, the
# crash's log excerpt, every link resolving inside the run folder, no
# markup smuggled in by a test. Then a screenshot must come out.
#
# Prints TAP; exits 1 if a check failed. Needs `make` (the kernel is built
# by umlrun, cached). UMLRUN_HTML_SHOT=FILE keeps a copy of the screenshot;
# UMLRUN=PATH tests another umlrun binary.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
umlrun=${UMLRUN:-$top/build/umlrun}
chromium=${CHROMIUM:-/usr/bin/chromium}
work=$(mktemp -d /tmp/umlrun-html.XXXXXX) || exit 1
# As root umlrun runs the guest as nobody, who must be able to get in here.
chmod 755 "$work"
# umlrun's staging folders and chromium's profile both live in $work.
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

. "$(dirname "$0")/../tap.sh"
show_tail() {
	[ -s "$1" ] && tail -n 8 "$1" | sed 's/^/#   /'
	return 0
}

# chromium ARGS...: headless, no network, its profile in $work; bounded.
chromium() {
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$work/chromium" "$@" 2>>"$work/chromium.err"
}

# The DOM's elements of one kind, each flattened to one line:
# blocks START_RE END_RE <dom
blocks() {
	awk -v s="$1" -v e="$2" '
		$0 ~ s { b = ""; on = 1 }
		on { b = b $0 " " }
		on && $0 ~ e { print b; on = 0 }'
}

# Every href of the DOM, attribute-decoded and percent-decoded, one a line.
hrefs() {
	grep -o 'href="[^"]*"' | sed 's/^href="//; s/"$//; s/&amp;/\&/g' | awk '
		BEGIN { for (i = 0; i < 256; i++) hex[sprintf("%02X", i)] = sprintf("%c", i) }
		{
			out = ""
			while (match($0, /%[0-9A-Fa-f][0-9A-Fa-f]/)) {
				out = out substr($0, 1, RSTART - 1) hex[toupper(substr($0, RSTART + 1, 2))]
				$0 = substr($0, RSTART + 3)
			}
			print out $0
		}'
}

echo "TAP version 13"
echo "1..16"

# ---- a real run: the integration suite's tests and this one's ----
suites=$work/suites
mkdir "$suites" && cp -R "$top/tests/integration/suites/itest" "$top/tests/html/suites/report" "$suites/"
mkdir -p "$work/ov <&>/etc" && echo overlay >"$work/ov <&>/etc/umlrun-html-check"
"$umlrun" run --results="$work/results" --suite-dir="$suites" --random-seed=5 \
	--overlay="$work/ov <&>" itest/t0001-pass.sh \
	itest/t0002-fail.sh itest/t0004-crash.sh report/t0001-escape.sh >"$work/out" 2>"$work/err"
rc=$?
run=$(cd "$work/results/latest" 2>/dev/null && pwd -P)
report=${run:-$work/none}/report.html
[ $rc -eq 3 ] && [ -s "$report" ]
check "the run ends with a crash (exit 3) and writes report.html" "exit status $rc"
[ $rc -eq 3 ] || show_tail "$work/err"

# ---- the DOM chromium builds from the page ----
chromium --dump-dom "file://$report" >"$work/dom.html"
rc=$?
[ $rc -eq 0 ] && grep -q '</html>' "$work/dom.html"
check "chromium loads report.html and dumps its DOM" "chromium exit status $rc"
[ $rc -eq 0 ] || show_tail "$work/chromium.err"

blocks '<tr class="test"' '</tr>' <"$work/dom.html" >"$work/rows"
[ "$(wc -l <"$work/rows")" -eq 4 ]
check "the table has one row per test file" "$(wc -l <"$work/rows") rows"

bad=
for tv in itest/t0001-pass.sh:pass itest/t0002-fail.sh:fail itest/t0004-crash.sh:crash \
	report/t0001-escape.sh:pass; do
	id=${tv%:*} v=${tv##*:}
	grep -F "<td class=\"id\">$id</td>" "$work/rows" |
		grep -F "data-verdict=\"$v\"" | grep -qF "<span class=\"verdict v-$v\">$v</span>" ||
		bad="$bad $id"
done
[ -z "$bad" ]
check "each row shows its test's verdict" "wrong:$bad"

grep -q '<span class="count v-crash" data-verdict="crash">crash<b>1</b>' "$work/dom.html" &&
	grep -q 'data-verdict="pass">pass<b>2</b>' "$work/dom.html" &&
	grep -q 'class="exit">3 ' "$work/dom.html"
check "the header shows the totals per verdict and the exit code"

grep -q '<dt>random seed</dt><dd class="random-seed">5</dd>' "$work/dom.html" &&
	grep -qF "<dd class=\"overlay\"><code>$work/ov &lt;&amp;&gt;</code></dd>" "$work/dom.html"
check "the header names the guest's random seed and the overlays, escaped"

grep -F '<tr class="subtests">' "$work/dom.html" | grep -q '<details' &&
	grep -q '<span class="r r-fail">fail</span> second</li>' "$work/dom.html"
check "the KTAP subtests are listed in <details> under their file"

blocks '<svg class="chart"' '</svg>' <"$work/dom.html" >"$work/svg"
blocks '<g class="bar"' '</g>' <"$work/dom.html" >"$work/bars"
[ -s "$work/svg" ] && [ "$(wc -l <"$work/bars")" -eq 4 ] &&
	[ "$(grep -c '<rect class="sim".*<rect class="wall"' "$work/bars")" -eq 4 ] &&
	[ "$(grep -c '>sim [^<]*s<.*>wall [^<]*s<' "$work/bars")" -eq 4 ]
check "the SVG chart has one labelled sim/wall bar group per test" \
	"$(wc -l <"$work/bars") bar groups"

blocks '<section class="excerpt' '</section>' <"$work/dom.html" >"$work/excerpts"
grep 'data-verdict="crash"' "$work/excerpts" | grep -q '<pre class="log">.*Kernel panic'
check "the crash's log excerpt shows the kernel panic"

[ "$(wc -l <"$work/excerpts")" -eq 2 ] && grep -q 'data-verdict="fail"' "$work/excerpts" &&
	grep 'data-verdict="fail"' "$work/excerpts" | grep -Eq 'reboot: (System halted|Power down)'
check "only the tests that did not pass get an excerpt, the console's last lines"

hrefs <"$work/dom.html" >"$work/hrefs"
missing=
while IFS= read -r h; do
	case $h in
	\#*) grep -q "id=\"${h#\#}\"" "$work/dom.html" || missing="$missing $h" ;;
	/* | *:* | ../* | */../*) missing="$missing $h(not-relative)" ;;
	*) [ -f "$run/$h" ] || missing="$missing $h" ;;
	esac
done <"$work/hrefs"
[ -s "$work/hrefs" ] && [ -z "$missing" ]
check "every link resolves to a file in the run folder or an anchor on the page" \
	"missing:$missing"

bad=
for id in itest/t0001-pass itest/t0002-fail itest/t0004-crash report/t0001-escape; do
	for f in console.log ktap.log cmdline.txt; do
		grep -qxF "$id/$f" "$work/hrefs" || bad="$bad $id/$f"
	done
done
[ -z "$bad" ]
check "each test links its console.log, ktap.log and cmdline.txt" "unlinked:$bad"

grep -qxF 'report/t0001-escape/artifacts/a b&c.pcap' "$work/hrefs" &&
	grep -qxF 'report/t0001-escape/artifacts/sub/hostapd.log' "$work/hrefs" &&
	! grep -q 'artifacts/note.txt' "$work/hrefs"
check "the artifacts' *.pcap and *.log are linked, percent-encoded, other files not"

grep -qF '&lt;script&gt;document.title=' "$work/dom.html" &&
	grep -qF 'wrote &lt;artifacts&gt; &amp; "logs"' "$work/dom.html" &&
	! grep -qi '<script\|<img' "$work/dom.html"
check "a test's markup is shown as text, never parsed (no <script>, no <img>)"

! grep -qiE '(src|href)="(https?:|//|file:)|<link |@import|url\(' "$work/dom.html"
check "the page needs no external resource"

# ---- a screenshot: the page renders to something ----
chromium --screenshot="$work/report.png" --window-size=1200,1600 "file://$report" >/dev/null
rc=$?
size=$(wc -c 2>/dev/null <"$work/report.png" || echo 0)
[ $rc -eq 0 ] && [ "$size" -gt 10240 ] &&
	[ "$(head -c 4 "$work/report.png" | od -An -c | tr -d ' ')" = '211PNG' ]
check "chromium renders a screenshot of the page (a PNG over 10 kB)" \
	"exit status $rc, $size bytes"
if [ -n "${UMLRUN_HTML_SHOT:-}" ]; then
	cp "$work/report.png" "$UMLRUN_HTML_SHOT" ||
		{ echo "# cannot copy the screenshot to $UMLRUN_HTML_SHOT"; failed=$((failed + 1)); }
fi

[ $failed -eq 0 ] || echo "# $failed of $n checks failed"
exit $((failed != 0))
