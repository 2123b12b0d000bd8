// The login page of the OAuth flow: it signs the user in, asks them to
// allow the client, and sends the browser back to the client.
"use strict";

const scopeText = {
  mcp: "use the club's booking tools on your behalf: courts, bookings, clients, payments, classes, events and tickets",
  "mcp:read": "look up the club's courts, bookings, clients, payments, classes, events and tickets on your behalf, without changing anything",
  panel: "act in the staff panel on your behalf",
  openid: "know who you are (your user id and email)",
};

const $ = (id) => document.getElementById(id);
const oauthState = new URLSearchParams(location.search).get("oauth_state") || "";
let accessToken = "";

function show(id) {
  for (const el of ["signin", "consent"]) $(el).hidden = el !== id;
}

function fail(text) {
  $("message").textContent = text;
  $("message").hidden = false;
}

async function call(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  return { status: res.status, data };
}

async function start() {
  if (!oauthState) {
    $("intro").textContent = "This page is the sign-in step of an app's connection to Clubhouse. Start from the app.";
    return;
  }
  const { status, data } = await call("GET", "/oauth/authorize/request?oauth_state=" + encodeURIComponent(oauthState));
  if (status !== 200) {
    $("intro").textContent = "This sign-in request cannot continue.";
    fail(data.message || "The request is unknown or expired; start again from the app.");
    return;
  }
  for (const id of ["client-name", "client-name-2"]) $(id).textContent = data.client_name;
  $("intro").textContent = data.client_name + " wants to connect to Clubhouse. Sign in with a staff account to allow it.";
  $("redirect-host").textContent = new URL(data.redirect_uri).host;
  // A client known by its metadata document (CIMD) chose its own name: the
  // document's host says who vouches for it.
  if (data.client_document_host) {
    $("client-host").textContent = data.client_document_host;
    $("client-origin").hidden = false;
  }
  const list = $("scopes");
  for (const s of data.scopes) {
    const li = document.createElement("li");
    li.textContent = scopeText[s] || s;
    li.dataset.scope = s;
    list.appendChild(li);
  }
  show("signin");
}

$("signin").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("message").hidden = true;
  $("signin-button").disabled = true;
  try {
    const email = $("email").value;
    const { status, data } = await call("POST", "/api/auth/login", { email, password: $("password").value });
    if (status !== 200) {
      fail(data.message || "Sign-in failed.");
      return;
    }
    accessToken = data.access_token;
    $("password").value = "";
    $("user").textContent = email;
    show("consent");
  } finally {
    $("signin-button").disabled = false;
  }
});

async function answer(path, token) {
  $("allow").disabled = $("deny").disabled = true;
  const { status, data } = await call("POST", path, { oauth_state: oauthState }, token);
  if (status === 200 && data.redirect_to) {
    location.assign(data.redirect_to);
    return;
  }
  $("allow").disabled = $("deny").disabled = false;
  fail(data.message || "The request failed.");
}

$("allow").addEventListener("click", () => answer("/oauth/authorize/complete", accessToken));
$("deny").addEventListener("click", () => answer("/oauth/authorize/deny"));

start();
