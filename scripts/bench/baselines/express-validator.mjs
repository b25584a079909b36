// Baseline: the naive stack. Express 5 + express-openapi-validator on our bundled description
// (requests validated, responses not, a bearer handler that accepts any token), answering
// every scenario from memory: what our server would cost with no store, auth, limits or logs.
// The validator as npm publishes it (the root's `express-openapi-validator-as-published`
// alias), not our server's copy, which patches/ changes: the stack a user gets from npm.
import { createRequire } from 'node:module';
import http from 'node:http';
import { mountPetRoutes } from './express-routes.mjs';
import { petsInMemory } from './pets-in-memory.mjs';
import { root, serverRequire } from '../paths.mjs';
import { listenAndAnnounce, settings } from './serve.mjs';

const PUBLISHED = 'express-openapi-validator-as-published';
const rootRequire = createRequire(`${root}/package.json`);
const ours = serverRequire('express-openapi-validator/package.json').version;
const published = rootRequire(`${PUBLISHED}/package.json`).version;
if (published !== ours) {
  throw new Error(
    `${PUBLISHED} is ${published} but our server runs express-openapi-validator ${ours}: ` +
      'align the alias in the root package.json',
  );
}
const express = serverRequire('express');
const { middleware: openApiValidator } = rootRequire(PUBLISHED);
const { port, pets } = settings();

const app = express();
app.use(express.json());
app.use(
  openApiValidator({
    apiSpec: serverRequire('@petstore/types/openapi.json'),
    validateApiSpec: false,
    validateRequests: true,
    validateResponses: false,
    validateSecurity: { handlers: { bearerAuth: () => true } },
  }),
);
mountPetRoutes(app, petsInMemory(pets));
listenAndAnnounce(http.createServer(app), port);
