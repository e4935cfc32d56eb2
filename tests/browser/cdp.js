// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe:
// no npm packages, just Node and Debian's chromium.  Messages are JSON,
// each ended by a NUL byte; chromium reads fd 3 and writes fd 4.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

function launch(chromium) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "fg-chrome-"));
	const child = spawn(chromium, [
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--remote-debugging-pipe", "--user-data-dir=" + profile,
		"--window-size=1200,900", "about:blank",
	], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
	let next = 1, buf = "";
	const pending = new Map(), listeners = [];
	child.stdio[4].on("data", (chunk) => {
		buf += chunk.toString("utf8");
		let end;
		while ((end = buf.indexOf("\0")) >= 0) {
			const msg = JSON.parse(buf.slice(0, end));
			buf = buf.slice(end + 1);
			if (msg.id && pending.has(msg.id)) {
				const { resolve, reject } = pending.get(msg.id);
				pending.delete(msg.id);
				msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
			} else if (msg.method) {
				listeners.forEach((l) => l(msg));
			}
		}
	});
	function send(method, params, sessionId) {
		const id = next++;
		const msg = { id, method, params: params || {} };
		if (sessionId) msg.sessionId = sessionId;
		child.stdio[3].write(JSON.stringify(msg) + "\0");
		return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
	}
	function on(fn) { listeners.push(fn); }
	// Ask the browser to quit, so that its helpers stop writing to the
	// profile, then remove the profile (retrying while files settle).
	function close() {
		return new Promise((resolve) => {
			const done = () => {
				try {
					fs.rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
				} catch (e) {
					// a leftover temporary profile is not a test failure
				}
				resolve();
			};
			child.on("exit", done);
			send("Browser.close").catch(() => child.kill());
			setTimeout(() => child.kill("SIGKILL"), 5000).unref();
		});
	}
	return { send, on, close };
}

// A page: navigate, evaluate, mouse and keys, dialogs, screenshots.
async function openPage(browser) {
	const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
	const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
	const send = (m, p) => browser.send(m, p, sessionId);
	const events = [];
	let onLoad = null, promptAnswer = null;
	browser.on((msg) => {
		if (msg.sessionId !== sessionId) return;
		events.push(msg);
		if (msg.method === "Page.loadEventFired" && onLoad) { onLoad(); onLoad = null; }
		if (msg.method === "Page.javascriptDialogOpening")
			send("Page.handleJavaScriptDialog", { accept: true, promptText: promptAnswer || "" });
	});
	await send("Page.enable");
	await send("Runtime.enable");
	await send("Emulation.setDeviceMetricsOverride",
		{ width: 1200, height: 900, deviceScaleFactor: 1, mobile: false });
	const page = {
		events,
		async goto(url) {
			const loaded = new Promise((r) => { onLoad = r; });
			await send("Page.navigate", { url });
			await loaded;
			await page.ready();
		},
		// Wait until no <svg> of ours has its data still unread (the
		// script removes it) and each is marked data-ready, for at most
		// 10 s.
		async ready() {
			const ok = await page.eval(`new Promise((done) => {
				const t0 = Date.now(), check = () => {
					const all = [...document.querySelectorAll(
						"svg>script[type='application/json']")]
						.map((s) => s.parentNode);
					if (all.every((p) => p.hasAttribute("data-ready"))) return done(true);
					if (Date.now() - t0 > 10000) return done(false);
					setTimeout(check, 5);
				};
				check();
			})`);
			if (!ok) throw new Error("page: a graph's script did not start (no data-ready)");
		},
		async eval(expr) {
			const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
			if (r.exceptionDetails) throw new Error("page: " + JSON.stringify(r.exceptionDetails));
			return r.result.value;
		},
		async mouse(type, x, y, opts) {
			await send("Input.dispatchMouseEvent", Object.assign({ type, x, y, button: "left", clickCount: 1 }, opts || {}));
		},
		async click(x, y, modifiers) {
			await page.mouse("mouseMoved", x, y, { modifiers });
			await page.mouse("mousePressed", x, y, { modifiers });
			await page.mouse("mouseReleased", x, y, { modifiers });
		},
		async key(key, code, modifiers, text) {
			const p = { key, code, modifiers: modifiers || 0, windowsVirtualKeyCode: key.length === 1 ? key.toUpperCase().charCodeAt(0) :
				({ Escape: 27, Tab: 9, Enter: 13, ArrowUp: 38, ArrowDown: 40 }[key] || 0) };
			await send("Input.dispatchKeyEvent", Object.assign({ type: text ? "keyDown" : "rawKeyDown", text }, p));
			await send("Input.dispatchKeyEvent", Object.assign({ type: "keyUp" }, p));
		},
		answerPrompts(text) { promptAnswer = text; },
		// Text typed into the focused element, as a keyboard would.
		async type(text) { await send("Input.insertText", { text }); },
		// The window's size in CSS pixels, as a user's resize makes it.
		async resize(width, height) {
			await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
		},
		// Run src in every document from now on, before its own scripts.
		async onNewDocument(source) {
			await send("Page.addScriptToEvaluateOnNewDocument", { source });
		},
		async screenshot() {
			const r = await send("Page.captureScreenshot", { format: "png" });
			return Buffer.from(r.data, "base64");
		},
	};
	return page;
}

module.exports = { launch, openPage };
