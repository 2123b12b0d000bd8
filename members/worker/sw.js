// sw.js: the members' app's service worker, scoped to /app/. It keeps the
// app's files and its offline page, so that the app opens without a
// network, and the last "my bookings" page the member saw, which it shows
// when the network is gone; every other page is the network's, never a
// stale copy. It shows the club's push notifications and opens their page
// when one is tapped. The kept bookings are forgotten when someone signs
// in or out, when a page answers that the session has ended, and after
// the longest a session lives (KEPT_FOR), so the next person on the
// device never sees them; signing in or out also ends the device's push
// subscription, which the next member turns on again as theirs. clubd
// writes PRECACHE and VERSION when it starts.
const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__;
const OFFLINE = "/app/offline";
const BOOKINGS = "/app/bookings";
const FILES = "app-files-" + VERSION;
const PAGES = "app-pages";
const KEPT_AT = "X-App-Kept-At";
const KEPT_FOR = 12 * 60 * 60 * 1000; // a session's absolute lifetime

// forget drops the kept pages and the device's push subscription: the
// person using the app changes, or may have.
const forget = async (push) => {
  await caches.delete(PAGES);
  if (!push) return;
  const sub = await self.registration.pushManager.getSubscription();
  if (sub) await sub.unsubscribe();
};

// keep stores a copy of res as the kept bookings, stamped with the time.
const keep = async (res) => {
  const headers = new Headers(res.headers);
  headers.set(KEPT_AT, String(Date.now()));
  const pages = await caches.open(PAGES);
  await pages.put(BOOKINGS, new Response(await res.blob(), { status: res.status, headers }));
};

// kept is the kept bookings, marked as a kept copy, or undefined when
// there is none or it is older than a session lives.
const kept = async () => {
  const hit = await caches.match(BOOKINGS, { cacheName: PAGES });
  if (!hit) return undefined;
  if (Date.now() - Number(hit.headers.get(KEPT_AT) || 0) > KEPT_FOR) {
    await caches.delete(PAGES);
    return undefined;
  }
  // The page says it is the copy kept, not the club's answer now.
  const page = (await hit.text()).replace('data-kept="false"', 'data-kept="true"');
  return new Response(page, { status: hit.status, headers: hit.headers });
};

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
    event.waitUntil(forget(true));
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
      const signIn = res.redirected && new URL(res.url).pathname === "/app/login";
      if (signIn || res.status === 401 || res.status === 403) {
        await forget(false);
      } else if (url.pathname === BOOKINGS && url.search === "" && res.ok && !res.redirected) {
        await keep(res.clone());
      }
      return res;
    } catch (err) {
      if (url.pathname === BOOKINGS) {
        const page = await kept();
        if (page) return page;
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
