// The floor of bench/fanout.bench.ts: a bare Node server that holds event streams and, on
// POST /send, writes one event to each. No database, session or bus: what delivering the events
// costs on this machine at all. Tells its parent its URL over IPC.
import { createServer } from 'node:http';

const streams = new Set();
const server = createServer((req, res) => {
  if (req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write('event: ready\ndata: {}\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
    return;
  }
  if (req.url === '/send' && req.method === 'POST') {
    const data = `event: poke\ndata: {"version":${Date.now()}}\n\n`;
    for (const s of streams) s.write(data);
    res.end();
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => process.send?.(`http://127.0.0.1:${server.address().port}`));
process.on('disconnect', () => process.exit(0));
