// The set-password page: it spends the one-time token of the link a new
// user was sent (?token=) on the password they choose, entered twice.
"use strict";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token") || "";

function fail(text) {
  $("message").textContent = text;
  $("message").hidden = false;
}

// The API is at the same base as this page (PUBLIC_BASE_URL/set-password),
// so the path is relative: it works behind a proxy's path prefix too.
async function setPassword(password) {
  const res = await fetch("api/auth/set-password", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, password }),
  });
  const data = res.status === 204 ? {} : await res.json().catch(() => ({}));
  return { status: res.status, data };
}

$("set-password").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("message").hidden = true;
  const password = $("password").value;
  if (password !== $("confirm").value) {
    fail("The two passwords differ; type the same password twice.");
    return;
  }
  $("save").disabled = true;
  try {
    const { status, data } = await setPassword(password);
    if (status === 204) {
      $("password").value = $("confirm").value = "";
      $("set-password").hidden = true;
      $("intro").hidden = true;
      $("done").hidden = false;
      return;
    }
    if (data.error === "invalid token") {
      // Used, expired or mistyped: no password will make this link work.
      $("set-password").hidden = true;
      $("intro").textContent = "This link cannot set a password. Ask the club for a new one.";
    }
    fail(data.message || "The password could not be set; try again.");
  } catch {
    fail("The server cannot be reached; try again.");
  } finally {
    $("save").disabled = false;
  }
});

if (token) {
  $("set-password").hidden = false;
} else {
  $("intro").textContent = "This link has no token: open the whole link you were sent, or ask the club for a new one.";
}
