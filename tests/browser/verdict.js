// The browser tests' verdicts, as tests/run.sh reads them: "ok NAME" or
// "FAIL NAME: why" per check, then "done", and an exit status that says
// whether any check failed.
"use strict";
let failures = 0;

function check(name, ok, why) {
	if (ok) console.log("ok " + name);
	else { failures++; console.log("FAIL " + name + (why ? ": " + why : "")); }
}

function done() {
	console.log("done");
	process.exit(failures ? 1 : 0);
}

module.exports = { check, done };
