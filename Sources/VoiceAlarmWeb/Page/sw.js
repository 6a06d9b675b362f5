"use strict";
// The service worker: it keeps the page's own files, so the page opens from the home screen even
// when the bedside machine cannot be reached, and then says so itself. It never keeps an answer
// of the API: the alarms shown are the machine's answer now, or none.
// Its name changes whenever the list does, so a phone drops the files it kept before.
const SHELL = "voicealarm-shell-2";
// Every module the page imports (app.mjs and what it imports) must be here, or the page opened
// from the home screen without the machine cannot start.
const MODULES = ["/app.mjs", "/page.mjs", "/page-logic.mjs", "/store.mjs", "/live.mjs", "/api.mjs", "/messages.mjs", "/dom.mjs",
  "/ui.mjs", "/player.mjs", "/recorder.mjs", "/view-top.mjs", "/view-alarms.mjs", "/view-voice.mjs", "/view-machine.mjs",
  "/device.mjs", "/pair.mjs"];
const FILES = ["/", "/style.css", "/pair", "/manifest.webmanifest", "/icon.svg", "/icon-192.png", "/icon-512.png",
  "/apple-touch-icon.png"].concat(MODULES);

async function keep(cache, path) {
  try {
    const response = await fetch(path, { cache: "no-store" });
    if (response.ok && !response.redirected) await cache.put(path, response);
  } catch (error) {
    // Not kept now: the next visit keeps it.
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => Promise.all(FILES.map((path) => keep(cache, path)))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
    // The page's request starts while this worker wakes up, not after.
    .then(() => self.registration.navigationPreload && self.registration.navigationPreload.enable())
    .then(() => self.clients.claim()));
});

// The page's files: from the machine when it answers (and kept again), else as kept.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  const path = request.mode === "navigate" ? (url.pathname === "/pair" ? "/pair" : "/") : url.pathname;
  if (!FILES.includes(path)) return;
  const answer = request.mode === "navigate" ? Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(request)) : fetch(request);
  event.respondWith(answer.then((response) => {
    if (response.ok && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL).then((cache) => cache.put(path, copy)));
    }
    return response;
  }, () => caches.match(path).then((kept) => kept || Response.error())));
});
