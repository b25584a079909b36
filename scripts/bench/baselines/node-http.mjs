// Baseline: bare node:http answering every scenario from memory, no framework, no validation.
import http from 'node:http';
import { errorBody, listPage, petsInMemory, unauthorized } from './pets-in-memory.mjs';
import { listenAndAnnounce, settings } from './serve.mjs';

const { port, pets } = settings();
const store = petsInMemory(pets);

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  if (!req.headers.authorization) return send(res, 401, unauthorized);
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/v1/pets' && req.method === 'GET') {
    const result = listPage(store, Object.fromEntries(url.searchParams));
    if (!result) return send(res, 400, errorBody(400, 'invalid_request', 'Bad cursor.'));
    return send(res, 200, result.page, result.link ? { link: result.link } : {});
  }
  if (url.pathname === '/v1/pets' && req.method === 'POST') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        send(res, 201, store.create(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        send(res, 400, errorBody(400, 'invalid_request', 'Bad JSON.'));
      }
    });
    return undefined;
  }
  const match = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
  const pet = match && req.method === 'GET' ? store.get(Number(match[1])) : undefined;
  if (pet) return send(res, 200, pet);
  return send(res, 404, errorBody(404, 'not_found', 'Not found.'));
});
listenAndAnnounce(server, port);
