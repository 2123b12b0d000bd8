// sw.js: the members' app's service worker, scoped to /app/. It keeps the
// app's files and its offline page, so that the app opens without a
// network, and the last "my bookings" page the member saw, which it shows
// when the network is gone; every other page is the network's, never a
// stale copy. It shows the club's push notifications and opens their page
// when one is tapped. Signing in or out forgets the kept bookings, so the
// next person on the device never sees them. clubd writes PRECACHE and
// VERSION when it starts.
const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__;
const OFFLINE = "/app/offline";
const BOOKINGS = "/app/bookings";
const FILES = "app-files-" + VERSION;
const PAGES = "app-pages";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(FILES);
    await cache.addAll([...PRECACHE, OFFLINE]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("app-files-") && name !== FILES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === "POST" && (url.pathname === "/app/logout" || url.pathname === "/app/login")) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (req.method !== "GET") return;
  if (url.pathname.startsWith("/app/static/")) {
    event.respondWith(caches.match(req, { cacheName: FILES }).then((hit) => hit || fetch(req)));
    return;
  }
  if (req.mode !== "navigate") return;
  event.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (url.pathname === BOOKINGS && url.search === "" && res.ok && !res.redirected) {
        const pages = await caches.open(PAGES);
        await pages.put(BOOKINGS, res.clone());
      }
      return res;
    } catch (err) {
      if (url.pathname === BOOKINGS) {
        const kept = await caches.match(BOOKINGS, { cacheName: PAGES });
        if (kept) {
          // The page says it is the copy kept, not the club's answer now.
          const page = (await kept.text()).replace('id="offline-note" class="notice" role="status" hidden', 'id="offline-note" class="notice" role="status" data-kept="true"');
          return new Response(page, { status: kept.status, headers: kept.headers });
        }
      }
      const offline = await caches.match(OFFLINE, { cacheName: FILES });
      if (offline) return offline;
      throw err;
    }
  })());
});

self.addEventListener("push", (event) => {
  let m = {};
  try {
    m = event.data ? event.data.json() : {};
  } catch {
    m = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(m.title || "", {
    body: m.body || "",
    icon: "/app/icon-192.png",
    tag: m.notification_id ? "n" + m.notification_id : undefined,
    data: { url: m.url || BOOKINGS },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || BOOKINGS, self.location.origin);
  const to = target.origin === self.location.origin ? target.href : new URL(BOOKINGS, self.location.origin).href;
  event.waitUntil(self.clients.openWindow(to));
});
