// This browser's device key: ECDSA P-256 made by WebCrypto, not extractable, kept in this
// origin's IndexedDB. The pairing page makes it and sends its public half with the code; the app
// signs each session's challenge with it, naming its device by the id kept beside the key. Only
// our origin opens it, and over HTTPS from the library's own authority nobody else can serve it.
export const DeviceKey = (() => {
  function database() {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open("voicealarm", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }
  async function keys(mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction("keys", mode);
      const request = work(transaction.objectStore("keys"));
      transaction.oncomplete = () => { db.close(); resolve(request.result); };
      transaction.onerror = transaction.onabort = () => { db.close(); reject(transaction.error); };
    });
  }
  function base64(buffer) { return btoa(String.fromCharCode(...new Uint8Array(buffer))); }
  return {
    // A new key for this browser (any older one is replaced); its public half, base64 SPKI.
    async make() {
      const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
      await keys("readwrite", (store) => { store.delete("device-id"); return store.put(pair, "device"); });
      return base64(await crypto.subtle.exportKey("spki", pair.publicKey));
    },
    // The device the bedside machine made for this key at pairing (not a secret: the key is).
    async remember(id) { await keys("readwrite", (store) => store.put(id, "device-id")); },
    async device() { return (await keys("readonly", (store) => store.get("device-id"))) || null; },
    // The key's signature of `text` (base64), or null when this browser has no key.
    async sign(text) {
      const pair = await keys("readonly", (store) => store.get("device"));
      if (!pair) return null;
      const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, new TextEncoder().encode(text));
      return base64(signature);
    },
  };
})();
