// The official TypeScript MCP SDK's client against a running clubd.
//
// It connects to MCP_URL as an unconfigured client would: the first request
// answers 401, and the SDK's own OAuth code discovers the authorization
// server (RFC 9728, RFC 8414), registers itself and sends the user to the
// authorization endpoint with a PKCE challenge and the resource indicator
// (RFC 8707). It registers by dynamic registration (RFC 7591), or, given
// CLIENT_METADATA_URL, by naming that Client ID Metadata Document as its
// client_id, as the SDK does when the server advertises
// client_id_metadata_document_supported. Where a person would
// sign in at the login page, this script does what the page does (sign in
// as STAFF_EMAIL, allow the client), then hands the code to the SDK, which
// exchanges it. Then it runs the recommended order of the tool calls and
// ends with a confirmed, paid booking. It prints one JSON line: the result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const mcpURL = new URL(process.env.MCP_URL);
const base = mcpURL.origin;
const email = process.env.STAFF_EMAIL;
const password = process.env.STAFF_PASSWORD;
const day = process.env.BOOKING_DAY; // YYYY-MM-DD, a free day
const metadataURL = process.env.CLIENT_METADATA_URL; // https; unset for dynamic registration

function fail(msg) {
  throw new Error(msg);
}

// provider keeps the client's registration, verifier and tokens in memory.
class Provider {
  constructor() {
    this.info = undefined;
    this.saved = undefined;
    this.verifier = "";
    this.authorizationURL = undefined;
  }
  get redirectUrl() {
    return "http://127.0.0.1:48123/callback";
  }
  get clientMetadataUrl() {
    return metadataURL;
  }
  get clientMetadata() {
    return {
      client_name: "Clubhouse TS SDK test",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "mcp",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationURL = url;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function json(res) {
  const body = await res.json();
  if (!res.ok) fail(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

// authorizeAsUser does what a person does at the login page and returns
// the code the browser would bring back to the client.
async function authorizeAsUser(authorizationURL) {
  const res = await fetch(authorizationURL, { redirect: "manual" });
  if (res.status !== 302) fail(`/authorize answered ${res.status}: ${await res.text()}`);
  const login = new URL(res.headers.get("location"));
  const state = login.searchParams.get("oauth_state") || fail(`no oauth_state in ${login}`);
  const pending = await json(await fetch(`${base}/oauth/authorize/request?oauth_state=${state}`));
  const signIn = await json(
    await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
  );
  const done = await json(
    await fetch(`${base}/oauth/authorize/complete`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${signIn.access_token}` },
      body: JSON.stringify({ oauth_state: state }),
    }),
  );
  const back = new URL(done.redirect_to);
  return { code: back.searchParams.get("code"), clientName: pending.client_name, scopes: pending.scopes };
}

const provider = new Provider();

async function connect() {
  const client = new Client({ name: "clubhouse-ts-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(mcpURL, { authProvider: provider });
  try {
    await client.connect(transport);
    return client;
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    const grant = await authorizeAsUser(provider.authorizationURL);
    await transport.finishAuth(grant.code);
    const again = new Client({ name: "clubhouse-ts-test", version: "1.0.0" });
    await again.connect(new StreamableHTTPClientTransport(mcpURL, { authProvider: provider }));
    again.grant = grant;
    return again;
  }
}

// call runs a tool and returns its JSON result; a business error fails,
// and so does a structuredContent that is not the text's JSON (the SDK has
// checked it against the tool's outputSchema).
async function call(client, name, args = {}) {
  const res = await client.callTool({ name, arguments: args });
  const text = res.content?.[0]?.text ?? fail(`${name}: no text content`);
  const value = JSON.parse(text);
  if (res.isError) fail(`${name}: ${text}`);
  if (JSON.stringify(res.structuredContent) !== JSON.stringify(value)) {
    fail(`${name}: structuredContent ${JSON.stringify(res.structuredContent)} is not the text ${text}`);
  }
  return value;
}

const client = await connect();
// The audience of the access token the SDK got (its payload, unverified).
const claims = JSON.parse(Buffer.from(provider.tokens().access_token.split(".")[1], "base64url").toString());
const tools = (await client.listTools()).tools.map((t) => t.name);

// The recommended order of the specification.
const named = (rows, name) => rows.find((r) => r.name === name) ?? fail(`no ${name} in ${JSON.stringify(rows)}`);
const { courts } = await call(client, "court_list");
const { reservation_types: types } = await call(client, "reservation_type_list");
const court = courts[0] ?? fail("no court");
const type = named(types, "Rental");
const span = { court_id: court.id, checking: `${day}T10:00:00`, checkout: `${day}T11:30:00` };
const free = await call(client, "booking_validate", span);
if (free.available !== true) fail(`booking_validate: ${JSON.stringify(free)}`);
const quote = await call(client, "booking_calculate_price", { ...span, reservation_type_id: type.id });
const create = { ...span, reservation_type_id: type.id, notes: "booked by the TS SDK test", idempotency_key: `ts-${day}-create` };
const booking = await call(client, "booking_create", create);
const retried = await call(client, "booking_create", create);
if (retried.id !== booking.id) fail(`a retried booking_create wrote again: ${booking.id} then ${retried.id}`);

const clientEmail = `ts-agent-${day}@example.com`;
let person = (await call(client, "client_search", { query: clientEmail })).clients[0];
if (!person) {
  const { clients: known } = await call(client, "client_search", { query: "client@demo.club" });
  person = await call(client, "client_create", {
    first_name: "Tess", last_name: "Agent", document: `TS${day.replaceAll("-", "")}`,
    document_type_id: known[0].document_type_id, email: clientEmail, phone: `+57300${day.replaceAll("-", "").slice(1)}`, // one a day, as the email
  });
}
await call(client, "booking_update", { booking_id: booking.id, client_id: person.id });
const { payment_types: paymentTypes } = await call(client, "payment_type_list");
const price = await call(client, "booking_get_price", { booking_id: booking.id });
const total = price.final_price ?? fail(`no final_price in ${JSON.stringify(price)}`);
await call(client, "booking_add_payment", {
  booking_id: booking.id, amount: total, payment_type_id: named(paymentTypes, "Cash").id,
  transaction_id: `ts-${day}-cash`, status: true, idempotency_key: `ts-${day}-pay`,
});
const { payments } = await call(client, "booking_payment_list", { booking_id: booking.id });
const read = await call(client, "booking_read", { booking_id: booking.id });
if (read.is_payment_complete !== true) fail(`not paid in full: ${JSON.stringify(read)}`);
const { reservation_statuses: statuses } = await call(client, "reservation_status_list");
const final = await call(client, "booking_update", { booking_id: booking.id, reservation_status_id: named(statuses, "Confirmed").id });
await client.close();

console.log(JSON.stringify({
  tools, grant: client.grant, oauth_client_id: provider.clientInformation().client_id, audience: claims.aud, booking_id: booking.id, client_id: person.id, quote: quote.final_price, total,
  payments, paid: read.total_paid, status: final.status_name,
}));
