// live.js: the day grid follows what anyone changes (another desk, a
// client, an agent) through the realtime relay, which the page's session
// cookie opens. Each message of a booking, a payment or a court's
// availability fetches the page again and swaps the grid in place,
// keeping the scroll and the focused cell. Without JavaScript, or without
// the relay, the grid is the same page, current when loaded.
const grid = document.getElementById("grid");
const watched = new Set(["booking:changed", "payment:updated", "availability:updated", "enrollment:changed", "class:cancelled"]);

if (grid && grid.dataset.live && "WebSocket" in window) {
  const status = document.getElementById("grid-status");
  let timer = 0;
  let wait = 1000;
  let missed = false;

  const refresh = async () => {
    // The header says this is no person's request: it does not keep the
    // session alive (a desk left alone still signs in again).
    const res = await fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html", "X-Panel-Refresh": "1" } });
    if (res.redirected) {
      location.reload();
      return;
    }
    if (!res.ok) return;
    const fresh = new DOMParser().parseFromString(await res.text(), "text/html").getElementById("grid");
    const current = document.getElementById("grid");
    if (!fresh || !current) return;
    const focused = current.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    current.replaceChildren(...fresh.childNodes);
    if (focused) current.querySelector(`a[href="${CSS.escape(focused)}"]`)?.focus();
    if (status) status.textContent = status.dataset.updated;
    document.dispatchEvent(new CustomEvent("grid:updated"));
  };

  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  };

  const connect = () => {
    const url = new URL(grid.dataset.live, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      wait = 1000;
      socket.send(JSON.stringify({ type: "subscribe", room: "panel" }));
      if (missed) soon();
    });
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "subscribed") grid.dataset.listening = "true";
      if (m.type === "message" && watched.has(m.event)) soon();
    });
    socket.addEventListener("close", (e) => {
      delete grid.dataset.listening;
      // 4001: the session's idle time ran out; 4003: its user changed.
      // The page asks to sign in again if it must.
      if (e.code === 4001 || e.code === 4003) {
        location.reload();
        return;
      }
      missed = true;
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    });
  };
  connect();
}
