// live.js: the day grid follows what anyone changes (another desk, a
// client, an agent): each message the kit's relay.js hands the grid (a
// booking, a payment, a court's availability, an enrollment, a class
// cancelled: the grid's data-events) fetches the page again and swaps the
// grid in place, keeping the scroll and the focused cell. Without
// JavaScript, or without the relay, the grid is the same page, current
// when loaded.
const grid = document.getElementById("grid");

if (grid && grid.dataset.live) {
  const status = document.getElementById("grid-status");
  let timer = 0;

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
  grid.addEventListener("relay:message", soon);
  grid.addEventListener("relay:missed", soon);
}
