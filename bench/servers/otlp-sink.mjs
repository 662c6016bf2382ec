// An OTLP/HTTP sink for the telemetry workload: accepts every POST, answers 200, counts the requests and bytes
// (printed on SIGTERM). Prints its port on the first line of stdout.
import { createServer } from 'node:http';

let posts = 0;
let bytes = 0;
const server = createServer((req, res) => {
  req.on('data', (chunk) => {
    bytes += chunk.length;
  });
  req.on('end', () => {
    posts += 1;
    res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' }).end();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  process.stdout.write(`${posts} posts, ${bytes} bytes\n`);
  process.exit(0);
});
