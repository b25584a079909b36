// Baseline: bare Express 5 (its defaults, express.json()) answering every scenario from memory;
// the bearer check is "a token is present"; no contract validation.
import http from 'node:http';
import { mountPetRoutes } from './express-routes.mjs';
import { petsInMemory, unauthorized } from './pets-in-memory.mjs';
import { serverRequire } from '../paths.mjs';
import { listenAndAnnounce, settings } from './serve.mjs';

const express = serverRequire('express');
const { port, pets } = settings();

const app = express();
app.use((req, res, next) =>
  req.headers.authorization ? next() : res.status(401).json(unauthorized),
);
app.use(express.json());
mountPetRoutes(app, petsInMemory(pets));
listenAndAnnounce(http.createServer(app), port);
