// A small 2025-11-25 stdio server for the probe's hostile cases (issue 37), one per mode (argv[2]):
//   c1-name      its name and version hold C1 controls and DEL (U+0085, U+007F, U+009B)
//   bad-tostring its values cannot be turned to text: { toString: 0 } as error message, tool name, progress
//   deep         tools/list's inputSchema nests 5,000 arrays deep
//   duplicate    it answers every tools/call twice
//   bad-utf8     its name holds a byte that is not UTF-8 (0xFF)
//   env-name     it names itself after its MY_TOKEN environment variable, reversed ("token <eulav>")
//   bulk         its first tools/call is preceded by 15 notifications/message of about 1 MB each: `{}`
//                objects 60 arrays deep (within the probe's bounds: 1 MiB a message, 16 MiB in all, 64 levels);
//                `bulk c1`: a string of U+0085 instead, each character written as a 6-character escape
//   requests     it sends ping, sampling/createMessage, elicitation/create and roots/list before answering initialize
// It refuses server/discover, answers initialize, tools/list and tools/call (after 300 ms, with one progress
// when asked), and ends itself after 60 s at most. Nothing here listens on a socket.
const mode = process.argv[2] ?? 'c1-name';
const odd = { toString: 0 };
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
let bulkSent = false;
const deep = () => '['.repeat(5000) + ']'.repeat(5000);

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.trim() !== '') handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
setTimeout(() => process.exit(0), 60_000);

function handle(m) {
  if (m.id === undefined) return;
  switch (m.method) {
    case 'server/discover':
      return send({ id: m.id, error: { code: -32601, message: mode === 'bad-tostring' ? odd : 'Method not found' } });
    case 'initialize':
      if (mode === 'bad-utf8') {
        const text = JSON.stringify({
          jsonrpc: '2.0',
          id: m.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'a#b', version: '1' },
          },
        });
        const [before, after] = text.split('#');
        return process.stdout.write(
          Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(`${after}\n`)]),
        );
      }
      if (mode === 'requests') {
        send({ id: 'p1', method: 'ping' });
        send({ id: 's1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
        send({
          id: 'e1',
          method: 'elicitation/create',
          params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
        });
        send({ id: 'r1', method: 'roots/list' });
      }
      return send({
        id: m.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo:
            mode === 'c1-name'
              ? { name: 'a\u0085b\u007fc', version: '1\u009b2' }
              : mode === 'env-name'
                ? { name: `token ${[...(process.env.MY_TOKEN ?? '')].reverse().join('')}`, version: '1' }
                : { name: 'hostile', version: '1' },
        },
      });
    case 'tools/list':
      if (mode === 'deep')
        return process.stdout.write(
          `{"jsonrpc":"2.0","id":${m.id},"result":{"tools":[{"name":"work","inputSchema":{"type":"object","x":${deep()}}}]}}\n`,
        );
      return send({
        id: m.id,
        result: {
          tools: [
            { name: mode === 'bad-tostring' ? odd : 'work', inputSchema: { type: 'object' } },
            { name: 'work', inputSchema: { type: 'object' } },
          ],
        },
      });
    case 'tools/call': {
      if (mode === 'bulk' && !bulkSent) {
        bulkSent = true;
        const depth = 60;
        const inner =
          process.argv[3] === 'c1'
            ? JSON.stringify('\u0085'.repeat(480_000))
            : Array.from({ length: 333_000 }, () => '{}').join(',');
        const data = '['.repeat(depth) + inner + ']'.repeat(depth);
        for (let i = 0; i < 15; i++)
          process.stdout.write(
            `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${data}}}\n`,
          );
      }
      const token = m.params?._meta?.progressToken;
      if (token !== undefined)
        send({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: mode === 'bad-tostring' ? odd : 1,
            total: mode === 'bad-tostring' ? odd : 2,
          },
        });
      const answer = () => send({ id: m.id, result: { content: [{ type: 'text', text: 'done' }] } });
      return void setTimeout(() => {
        answer();
        if (mode === 'duplicate') answer();
      }, 300);
    }
    default:
      return send({ id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
}
