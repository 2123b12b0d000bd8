// relay.js: the web kit's client of the realtime relay. On a page with an
// element marked data-live (the relay's address), it opens the relay with
// the page's session cookie and joins the room data-room names; for each
// message of a kind data-events lists it dispatches "relay:message" on
// that element (detail: the message), and after a reconnection, which may
// have missed some, "relay:missed". It marks the element data-listening
// while subscribed, reconnects with a doubling wait up to 30 s, and
// reloads the page once the session has ended (4001: its idle time ran
// out; 4003: its user changed), so that the page asks to sign in again if
// it must. The door's own module says what a message changes. Without
// JavaScript, or without the relay, the page is the same, current when
// loaded.
const live = document.querySelector("[data-live]");

if (live && "WebSocket" in window) {
  const watched = new Set((live.dataset.events || "").split(" ").filter(Boolean));
  let wait = 1000;
  let missed = false;

  const connect = () => {
    const url = new URL(live.dataset.live, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      wait = 1000;
      socket.send(JSON.stringify({ type: "subscribe", room: live.dataset.room }));
      if (missed) live.dispatchEvent(new CustomEvent("relay:missed"));
    });
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "subscribed") live.dataset.listening = "true";
      if (m.type === "message" && watched.has(m.event)) live.dispatchEvent(new CustomEvent("relay:message", { detail: m }));
    });
    socket.addEventListener("close", (e) => {
      delete live.dataset.listening;
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
