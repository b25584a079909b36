// What the benchmark measures: one entry per request shape, each served by every target.
import { NORMAL_PETS, SCALE_PETS, cursorAfter } from './dataset.mjs';

/** A late id deep into the cursor chain of the scale data set: 90 % of the way along. */
const DEEP_ID = 900_000;
const deep = cursorAfter(DEEP_ID);
/** The same point of the chain in the reference data set (1,000 pets). */
const REFERENCE_DEEP_ID = (DEEP_ID / SCALE_PETS) * NORMAL_PETS;

/** A read every target answers 200 with our server's body (and, for pages, Link header). */
function read(name, pets, path, same, title = path) {
  const scale = pets === SCALE_PETS ? ' (1M pets)' : '';
  const expected = { ours: [200], baseline: [200] };
  return { name, title: `GET ${title}${scale}`, pets, method: 'GET', path, expected, same };
}

/** What of a page every target must send alike. */
const page = ['body', 'link'];

/**
 * A read of the scale data set, with `reference`: the same kind of page of the 1,000-pet data
 * set, which our server also answers in the same rounds (the 1,000,000 ÷ 1,000 ratio).
 */
function scaleRead(name, path, referencePath, title) {
  return { ...read(name, SCALE_PETS, path, page, title), reference: { path: referencePath } };
}

/**
 * `pets`: how many pets the targets hold while it runs (the scale scenarios get their own
 * store). `expected`: the statuses a correct answer has, per target kind. `same`: what of our
 * server's answer every target must send too (checked before measuring): the body, the Link
 * header (the next page; getPet's deprecation links are ours alone).
 * `reference` (scale scenarios): the request for the same kind of page at 1,000 pets.
 * Order matters within a data set: `create` adds pets, so it runs after the reads.
 */
export const scenarios = [
  read('list-20', NORMAL_PETS, '/v1/pets?limit=20', page),
  read('list-100-available', NORMAL_PETS, '/v1/pets?limit=100&status=available', page),
  read('get', NORMAL_PETS, '/v1/pets/500', ['body']),
  {
    name: 'create',
    title: 'POST /v1/pets',
    pets: NORMAL_PETS,
    method: 'POST',
    path: '/v1/pets',
    body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
    expected: { ours: [201], baseline: [201] },
    same: [],
  },
  {
    // The same create, made safe to retry: a new Idempotency-Key per request (so each one
    // creates), which our server records with the pet; the baselines ignore the header.
    name: 'create-idempotent',
    title: 'POST /v1/pets with an Idempotency-Key',
    pets: NORMAL_PETS,
    method: 'POST',
    path: '/v1/pets',
    body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
    idempotent: true,
    expected: { ours: [201], baseline: [201] },
    same: [],
  },
  {
    // Last of its data set: every request comes from a new client address (X-Forwarded-For,
    // our server behind a loopback proxy), so it measures the 401 path rather than the
    // per-address limit; the thousands of addresses it leaves in the in-memory limiter would
    // otherwise weigh on the scenarios after it.
    name: 'no-auth',
    title: 'GET /v1/pets without Authorization',
    pets: NORMAL_PETS,
    method: 'GET',
    path: '/v1/pets',
    anonymous: true,
    expected: { ours: [401], baseline: [401] },
    same: [],
  },
  scaleRead('scale-first', '/v1/pets?limit=20', '/v1/pets?limit=20'),
  scaleRead(
    'scale-first-available',
    '/v1/pets?limit=20&status=available',
    '/v1/pets?limit=20&status=available',
  ),
  scaleRead(
    'scale-deep',
    `/v1/pets?limit=20&cursor=${deep}`,
    `/v1/pets?limit=20&cursor=${cursorAfter(REFERENCE_DEEP_ID)}`,
    `/v1/pets?limit=20&cursor=(after id ${DEEP_ID})`,
  ),
  scaleRead(
    'scale-deep-available',
    `/v1/pets?limit=20&status=available&cursor=${deep}`,
    `/v1/pets?limit=20&status=available&cursor=${cursorAfter(REFERENCE_DEEP_ID)}`,
    `/v1/pets?limit=20&status=available&cursor=(after id ${DEEP_ID})`,
  ),
];

export const scenarioNames = scenarios.map((scenario) => scenario.name);

/** The soak's mixed load: each connection cycles list, get, create. */
export const soakMix = ['list-20', 'get', 'create'].map((name) =>
  scenarios.find((scenario) => scenario.name === name),
);

/** The statuses a correct answer of `target` to `scenario` may have. */
export function expectedStatuses(scenario, target) {
  return OUR_SERVERS.has(target) ? scenario.expected.ours : scenario.expected.baseline;
}

/**
 * Our server again, holding the 1,000-pet data set, run beside the others in the scale
 * scenarios: how much 1,000,000 pets cost is measured in the same rounds, not across the run.
 */
export const REFERENCE = 'ours-1k';

/** Another build of our server, named by `--against`, measured beside ours. */
export const AGAINST = 'against';

/** The targets that are our server: they answer from a store; the baselines from memory. */
export const OUR_SERVERS = new Set(['ours', 'ours-traced', AGAINST, REFERENCE]);

/** The scenario as `target` is asked it: the reference asks the 1,000-pet page instead. */
export function scenarioFor(scenario, target) {
  return target === REFERENCE ? { ...scenario, path: scenario.reference.path } : scenario;
}
