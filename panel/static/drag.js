// drag.js: a booking's block on the day grid can be dragged to a free
// cell, which opens the booking's move form for that court and time with
// its length kept: the form shows the new price, the difference and the
// rules that apply before anything changes. Without JavaScript (or with a
// keyboard) the booking's page has the same form. The grid is redrawn by
// live.js, so the listeners live on the document.
const grid = () => document.getElementById("grid");

const minutes = (hhmm) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};

// clock is a time of day as HH:MM; past midnight it wraps, and the move
// form reads an end at or before the start as the next day's.
const clock = (total) => {
  const t = total % (24 * 60);
  return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
};

const enable = () => {
  grid()?.querySelectorAll("td.block[data-booking]:not(.held) > a").forEach((a) => {
    a.draggable = true;
  });
};

let dragged = null;

document.addEventListener("dragstart", (e) => {
  const cell = e.target.closest?.("td.block[data-booking]");
  if (!cell || !grid()?.contains(cell)) return;
  dragged = { id: cell.dataset.booking, length: Number(cell.dataset.minutes) };
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/plain", cell.dataset.booking);
});

const target = (e) => (dragged ? e.target.closest?.("td.free, td.shut") : null);

document.addEventListener("dragover", (e) => {
  const cell = target(e);
  if (!cell) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = "move";
  cell.classList.add("drop");
});

document.addEventListener("dragleave", (e) => target(e)?.classList.remove("drop"));

document.addEventListener("drop", (e) => {
  const cell = target(e);
  if (!cell) return;
  e.preventDefault();
  const from = new URL(cell.querySelector("a").href);
  const start = from.searchParams.get("start");
  const to = new URL(`/panel/bookings/${dragged.id}/move`, location.href);
  to.searchParams.set("court", from.searchParams.get("court"));
  to.searchParams.set("date", from.searchParams.get("date"));
  to.searchParams.set("start", start);
  to.searchParams.set("end", clock(minutes(start) + dragged.length));
  dragged = null;
  location.assign(to);
});

document.addEventListener("dragend", () => {
  dragged = null;
  grid()?.querySelectorAll(".drop").forEach((c) => c.classList.remove("drop"));
});

enable();
document.addEventListener("grid:updated", enable);
