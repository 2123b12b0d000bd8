// Connects to clubd's realtime relay (WS_URL) with the npm ws client,
// authenticated by the bearer token TOKEN, subscribes to the room ROOM,
// prints "ready" once subscribed, then waits for the first message whose
// event is EVENT and prints it as one line of JSON. Exits 1 on an error
// frame, a close, or after 30 seconds.
import WebSocket from 'ws';

const { WS_URL, TOKEN, ROOM, EVENT } = process.env;
const ws = new WebSocket(WS_URL, { headers: { Authorization: `Bearer ${TOKEN}` } });
const fail = (why) => { console.error(why); process.exit(1); };
setTimeout(() => fail('timed out'), 30000);
ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', room: ROOM })));
ws.on('message', (raw) => {
  const m = JSON.parse(raw.toString());
  if (m.type === 'subscribed') {
    console.log('ready');
  } else if (m.type === 'error') {
    fail(`error frame: ${raw}`);
  } else if (m.type === 'message' && m.event === EVENT) {
    console.log(JSON.stringify(m));
    ws.close(1000);
    process.exit(0);
  }
});
ws.on('close', (code) => fail(`closed: ${code}`));
ws.on('error', (err) => fail(`error: ${err.message}`));
