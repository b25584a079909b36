// The handlers both Express baselines mount, so they differ only in their middleware.
import { errorBody, listPage } from './pets-in-memory.mjs';

const codes = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  415: 'unsupported_media_type',
};

/** listPets, createPet and getPet from `store`, then an error handler sending the Error body. */
export function mountPetRoutes(app, store) {
  app.get('/v1/pets', (req, res) => {
    const result = listPage(store, req.query);
    if (!result) return res.status(400).json(errorBody(400, 'invalid_request', 'Bad cursor.'));
    if (result.link) res.set('link', result.link);
    return res.json(result.page);
  });
  app.post('/v1/pets', (req, res) => res.status(201).json(store.create(req.body)));
  app.get('/v1/pets/:petId', (req, res) => {
    const pet = store.get(Number(req.params.petId));
    return pet ? res.json(pet) : res.status(404).json(errorBody(404, 'not_found', 'Not found.'));
  });
  app.use((error, req, res, _next) => {
    const status = error.status ?? 500;
    res.status(status).json(errorBody(status, codes[status] ?? 'internal_error', error.message));
  });
}
