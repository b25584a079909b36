// Baseline: the naive stack. Express 5 + express-openapi-validator on our bundled description
// (requests validated, responses not, a bearer handler that accepts any token), answering
// every scenario from memory: what our server would cost with no store, auth, limits or logs.
import http from 'node:http';
import { mountPetRoutes } from './express-routes.mjs';
import { petsInMemory } from './pets-in-memory.mjs';
import { serverRequire } from '../paths.mjs';
import { listenAndAnnounce, settings } from './serve.mjs';

const express = serverRequire('express');
const { middleware: openApiValidator } = serverRequire('express-openapi-validator');
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
