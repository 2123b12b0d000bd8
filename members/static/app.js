// app.js: what the members' app does with JavaScript on. It registers
// the service worker (the app installs, and opens without a network);
// says when the page shown is a copy kept offline (the worker marks it)
// or the device is offline; turns the member's push notifications on and
// off (the browser asks for permission only then); and keeps the pages
// marked data-live current: each message the kit's relay.js hands the
// page (the kinds its data-events names: the member's bookings, payments
// or classes, a court's free times) fetches the page again and swaps its
// live part in place. Without JavaScript every page and form works the
// same, without these.
const workers = "serviceWorker" in navigator;
if (workers) navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" }).catch(() => {});

const note = document.getElementById("offline-note");
const showNote = () => {
  if (note) note.hidden = navigator.onLine && note.dataset.kept !== "true";
};
addEventListener("online", showNote);
addEventListener("offline", showNote);
showNote();

// fromBase64url reads the VAPID key as PushManager.subscribe takes it.
const fromBase64url = (s) => {
  const raw = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

const box = document.getElementById("push");
if (box && workers && "PushManager" in window && "Notification" in window) {
  const button = document.getElementById("push-toggle");
  const state = document.getElementById("push-state");
  const post = (path, fields) =>
    fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf_token: box.dataset.csrf, ...fields }),
    });
  const show = (on) => {
    button.textContent = on ? button.dataset.turnOff : button.dataset.turnOn;
    button.setAttribute("aria-pressed", String(on));
    state.textContent = on ? state.dataset.msgOn : state.dataset.msgOff;
  };
  const current = async () => (await navigator.serviceWorker.ready).pushManager.getSubscription();
  box.hidden = false;
  // A subscription of this browser is registered again as this member's:
  // the server moves a device to whoever subscribed it with its keys.
  current().then(
    async (s) => {
      if (s) {
        const j = s.toJSON();
        await post("/app/notifications", { endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth });
      }
      show(Boolean(s));
    },
    () => show(false),
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const had = await current();
      if (had) {
        await post("/app/notifications/off", { endpoint: had.endpoint });
        await had.unsubscribe();
        show(false);
        return;
      }
      if ((await Notification.requestPermission()) !== "granted") {
        state.textContent = state.dataset.msgDenied;
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(box.dataset.key) });
      const j = sub.toJSON();
      const res = await post("/app/notifications", { endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth });
      if (!res.ok) {
        await sub.unsubscribe();
        state.textContent = state.dataset.msgFailed;
        return;
      }
      show(true);
    } catch {
      state.textContent = state.dataset.msgFailed;
    } finally {
      button.disabled = false;
    }
  });
}

const live = document.querySelector("[data-live]");
if (live) {
  let timer = 0;
  let asked = 0;
  const refresh = async () => {
    const mine = ++asked;
    // The page's own address (data-src), not the form's it may have come
    // back from; the header says this is no person's request: it does not
    // keep the session alive.
    const src = live.dataset.src || location.href;
    const res = await fetch(src, { credentials: "same-origin", headers: { Accept: "text/html", "X-App-Refresh": "1" } });
    if (res.redirected) {
      location.reload();
      return;
    }
    if (!res.ok) return;
    const fresh = new DOMParser().parseFromString(await res.text(), "text/html").getElementById(live.id);
    // An answer overtaken by a later refresh is dropped.
    if (!fresh || mine !== asked) return;
    live.replaceChildren(...fresh.childNodes);
    live.dataset.updated = String(Date.now());
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  };
  live.addEventListener("relay:message", soon);
  live.addEventListener("relay:missed", soon);
}
