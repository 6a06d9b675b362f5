#!/usr/bin/env bash
# One test run as two processes started together: the suites that walk long scenarios one step
# after another, mostly waiting (the browsers, the sound server, the daemon through a snooze on a
# faked clock, the live page, snoozes, the web service's unit, Home Assistant's broker), in the
# test binary itself, every other suite through swift test. In one process the long scenarios
# waited for a free slot behind the rest (Swift Testing starts at most TEST_WIDTH tests at once),
# each step of a serialized suite behind every test still waiting, and ended the run 25-70 s
# after it.
# Both event streams end up in EVENTS, one after the other; the exit status is 1 when either
# process failed. The browsers' output is printed after the rest's.
# usage: run_tests.sh EVENTS.jsonl (from the package's root, after swift build --build-tests)
set -u
events=${1:?usage: run_tests.sh EVENTS.jsonl}
apart='VoiceAlarmCLITests\.(WebPageTests|PulseAudioTests|SnoozeDaemonTests|SnoozeTests|ServeLiveTests|WebServiceCommandTests|HomeBridgeTests)'
rm -f "$events" "$events.apart" "$events.apart.log" "$events.rest"
NO_COLOR=1 .build/debug/VoiceAlarmPackageTests.xctest --testing-library swift-testing --filter "$apart" \
  --event-stream-output-path "$events.apart" --event-stream-version 0 > "$events.apart.log" 2>&1 &
apart_pid=$!
# The rest gets two slots fewer, so no more tests run at once than in one process.
width=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-12}
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$((width > 4 ? width - 2 : 2)) \
  swift test --skip-build --skip "$apart" --event-stream-output-path "$events.rest"
rest_status=$?
wait "$apart_pid"
apart_status=$?
echo "--- the long scenarios: browsers, sound server, snoozes, the live page (run beside the rest) ---"
cat "$events.apart.log"
cat "$events.rest" "$events.apart" > "$events" 2>/dev/null
rm -f "$events.apart" "$events.apart.log" "$events.rest"
[ "$rest_status" = 0 ] && [ "$apart_status" = 0 ]
