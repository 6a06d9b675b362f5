"use strict";
// What the server answers for any service worker other than /sw.js: one this page never had,
// which another program registered while it held this address (the browser asks for it again
// to update it). It takes over, removes itself, and reloads the pages it held, so they come from
// the bedside machine again.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(self.registration.unregister()
    .then(() => self.clients.matchAll({ type: "window" }))
    .then((clients) => Promise.all(clients.map((client) => client.navigate(client.url).catch(() => null)))));
});
