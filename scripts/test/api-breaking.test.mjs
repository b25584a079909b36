import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findBreakingChanges } from '../api-breaking/compare.mjs';
import { compareFiles, latestBaseline, main, readDescription } from '../api-breaking.mjs';

/** @type {any} */
let baseline;
let scratch = '';

beforeAll(async () => {
  baseline = await readDescription(await latestBaseline());
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-breaking-test-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The baseline with one edit applied. */
function edited(edit) {
  const copy = structuredClone(baseline);
  edit(copy);
  return copy;
}

const c = (d) => d.components;

/** The messages of some findings. */
const messages = (findings) => findings.map((f) => f.message);

describe('findBreakingChanges', () => {
  it('finds nothing between the baseline and itself', () => {
    expect(findBreakingChanges(baseline, structuredClone(baseline)).findings).toEqual([]);
  });

  it.each([
    [
      'a removed operation',
      (d) => delete d.paths['/pets/{petId}'].get,
      'GET /pets/{petId}: operation removed',
    ],
    [
      'a removed path',
      (d) => delete d.paths['/pets/{petId}'],
      'GET /pets/{petId}: operation removed',
    ],
    [
      'a new required field in a request body',
      (d) => c(d).schemas.NewPet.required.push('status'),
      'POST /pets request body: property `status` is now required',
    ],
    [
      'a new required query parameter',
      (d) =>
        d.paths['/pets'].get.parameters.push({
          name: 'owner',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        }),
      'GET /pets: new required parameter query owner',
    ],
    [
      'an optional parameter made required',
      (d) => {
        c(d).parameters.Limit.required = true;
      },
      'GET /pets: parameter query limit is now required',
    ],
    [
      'a narrowed enum in a request',
      (d) => {
        c(d).schemas.PetStatus.enum = ['available', 'pending'];
      },
      'POST /pets request body.status: value(s) "sold" no longer accepted',
    ],
    [
      'a lower maximum on a parameter',
      (d) => {
        c(d).parameters.Limit.schema.maximum = 50;
      },
      'GET /pets parameter query limit: `maximum` tightened from 100 to 50',
    ],
    [
      'a shorter maxLength in a request body',
      (d) => {
        c(d).schemas.PetName.maxLength = 100;
      },
      'POST /pets request body.name: `maxLength` tightened from 255 to 100',
    ],
    [
      'a removed response header',
      (d) => delete d.paths['/pets'].get.responses['200'].headers['X-RateLimit-Reset'],
      'GET /pets response 200: header X-RateLimit-Reset removed',
    ],
    [
      'a response header no longer always sent',
      (d) => {
        c(d).headers['X-Request-Id'].required = false;
      },
      'GET /pets response 200: header X-Request-Id is no longer always sent',
    ],
    [
      'a removed response status',
      (d) => delete d.paths['/pets'].post.responses['413'],
      'POST /pets response 413: removed',
    ],
    [
      'a changed type of a response field',
      (d) => {
        c(d).schemas.Pet.properties.id = { type: 'string' };
      },
      'GET /pets response 200 body[].id: may now be of type string',
    ],
    [
      'a response field that may now be null',
      (d) => {
        c(d).schemas.PetName.type = ['string', 'null'];
      },
      'GET /pets/{petId} response 200 body.name: may now be of type null',
    ],
    [
      'a new enum value in a response',
      (d) => c(d).schemas.ErrorCode.enum.push('teapot'),
      'GET /pets response 400 body.code: may now hold the new value(s) "teapot"',
    ],
    [
      'a response field made optional',
      (d) => {
        c(d).schemas.Pet.required = ['id', 'name'];
      },
      'POST /pets response 201 body: property `categoryId` may now be absent',
    ],
    [
      'a changed header constant',
      (d) => {
        c(d).headers.Sunset.schema.const = 'Fri, 06 Dec 2030 00:00:00 GMT';
      },
      'GET /pets/{petId} response 200 header Sunset: may now hold the new value(s) "Fri, 06 Dec 2030 00:00:00 GMT"',
    ],
    [
      'a changed security requirement',
      (d) => {
        d.security = [{ oauth: [] }];
      },
      'GET /pets: security changed from [{"bearerAuth":[]}] to [{"oauth":[]}]',
    ],
    [
      'a renamed operationId',
      (d) => {
        d.paths['/pets'].get.operationId = 'findPets';
      },
      'GET /pets: operationId changed from listPets to findPets (generated clients use it)',
    ],
    [
      'a pattern that means something else',
      (d) => {
        c(d).schemas.PetName.pattern = '^[^\\x00-\\x20\\x7F]*$';
      },
      'POST /pets request body.name: `pattern` changed from "^[^\\\\u0000-\\\\u001F\\\\u007F]*$" to "^[^\\\\x00-\\\\x20\\\\x7F]*$"',
    ],
    [
      'an integer format narrower than the bounds',
      (d) => {
        Object.assign(c(d).parameters.Limit.schema, { format: 'int32', maximum: 2 ** 40 });
      },
      'GET /pets parameter query limit: `format: int32` added',
    ],
    [
      'a keyword the checker does not model',
      (d) => {
        c(d).schemas.NewPet.not = { required: ['status'] };
      },
      'POST /pets request body: `not` changed (not understood by this checker: review it)',
    ],
  ])('reports %s', (_kind, edit, expected) => {
    const { breaking, newMajor } = findBreakingChanges(baseline, edited(edit));
    expect(messages(breaking)).toContain(expected);
    expect(newMajor).toBe(false);
  });

  it.each([
    [
      'a new optional request field',
      (d) => {
        c(d).schemas.NewPet.properties.nickname = { type: 'string', maxLength: 50 };
      },
    ],
    [
      'a new operation',
      (d) => {
        d.paths['/pets/{petId}'].delete = structuredClone(d.paths['/pets/{petId}'].get);
        d.paths['/pets/{petId}'].delete.operationId = 'deletePet';
      },
    ],
    [
      'a new optional query parameter',
      (d) => {
        d.paths['/pets'].get.parameters.push({
          name: 'name',
          in: 'query',
          schema: { type: 'string' },
        });
      },
    ],
    [
      'documentation text',
      (d) => {
        d.info.description += '\n## Getting started\n\nGet a key, then call `GET /pets`.';
        d.paths['/pets'].get.description = 'Lists animals.';
        c(d).schemas.Pet.description = 'An animal.';
        c(d).examples.PetWithStatus.value.name = 'Fido';
      },
    ],
    [
      'a new tag',
      (d) => {
        d.tags.push({ name: 'Getting started', description: 'Read me first.', 'x-traitTag': true });
      },
    ],
    [
      'a higher maximum on a request parameter',
      (d) => {
        c(d).parameters.Limit.schema.maximum = 200;
      },
    ],
    [
      'a new response status',
      (d) => {
        d.paths['/pets'].get.responses['503'] = d.paths['/pets'].get.responses['500'];
      },
    ],
    [
      'a new response header',
      (d) => {
        c(d).responses.BadRequest.headers['Cache-Control'] = { schema: { type: 'string' } };
      },
    ],
    [
      'a pattern respelled with \\x escapes (the same characters)',
      (d) => {
        c(d).schemas.PetName.pattern = '^[^\\x00-\\x1F\\x7f]*$';
      },
    ],
    [
      'an integer format the bounds already imply',
      (d) => {
        c(d).parameters.Limit.schema.format = 'int32';
      },
    ],
    [
      'a removed response enum value (the server sends less)',
      (d) => {
        c(d).schemas.ErrorCode.enum = c(d).schemas.ErrorCode.enum.filter((v) => v !== 'key_banned');
        c(d).schemas.PetStatus.enum = ['available', 'pending', 'sold'];
      },
    ],
  ])('accepts %s', (_kind, edit) => {
    expect(messages(findBreakingChanges(baseline, edited(edit)).breaking)).toEqual([]);
  });

  it('allows breaking changes under a new major version', () => {
    const report = findBreakingChanges(
      baseline,
      edited((d) => {
        delete d.paths['/pets/{petId}'];
        d.info.version = '2.0.0';
      }),
    );
    expect(report).toMatchObject({ newMajor: true, beforeVersion: '1.0.0', afterVersion: '2.0.0' });
    expect(messages(report.breaking)).toEqual(['GET /pets/{petId}: operation removed']);
  });

  it('does not take a new minor version as leave to break', () => {
    const report = findBreakingChanges(
      baseline,
      edited((d) => {
        delete d.paths['/pets/{petId}'];
        d.info.version = '1.1.0';
      }),
    );
    expect(report.newMajor).toBe(false);
  });
});

describe('npm run api:breaking', () => {
  it('passes the working description (bundled afresh) against the baseline', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await main([])).toBe(0);
      expect(log).toHaveBeenCalledWith(
        'No breaking change against openapi/baseline/openapi-1.0.0.yaml (1.0.0).',
      );
    } finally {
      log.mockRestore();
    }
  });

  it('exits 1 and lists the change when a description breaks the baseline', async () => {
    const head = path.join(scratch, 'breaking.json');
    await writeFile(head, JSON.stringify(edited((d) => delete d.paths['/pets'].post)));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await main(['--head', head])).toBe(1);
      const printed = error.mock.calls[0]?.[0];
      expect(printed).toContain('  - POST /pets: operation removed');
      expect(printed).toContain('rule operation-removed at openapi/baseline/openapi-1.0.0.yaml:');
      expect(printed).toContain('#/paths/~1pets/post');
      expect(printed).toContain('compatible: keep it; deprecate it with a Sunset date');
    } finally {
      error.mockRestore();
    }
  });

  it('names the line of each finding in the source it points into', async () => {
    const head = path.join(scratch, 'narrower.json');
    const text = JSON.stringify(
      edited((d) => {
        c(d).schemas.PetName.maxLength = 100;
      }),
      null,
      2,
    );
    await writeFile(head, text);
    const { breaking } = await compareFiles({ head });
    const finding = breaking.find(
      (f) => f.message === 'POST /pets request body.name: `maxLength` tightened from 255 to 100',
    );
    expect(finding).toMatchObject({
      rule: 'request-bound-tightened',
      pointer: '#/components/schemas/PetName/maxLength',
      side: 'after',
      fix: 'keep `maxLength: 255`',
    });
    expect(finding?.line).toBe(
      text.split('\n').findIndex((l) => l.includes('"maxLength": 100')) + 1,
    );
  });

  it("allows and reports getPet's removal once its Sunset date has passed", async () => {
    const head = path.join(scratch, 'without-get-pet.json');
    await writeFile(head, JSON.stringify(edited((d) => delete d.paths['/pets/{petId}'])));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await main(['--head', head], { now: new Date('2030-12-05T00:00:00Z') })).toBe(0);
      expect(log.mock.calls.map((call) => call[0])).toEqual([
        'Allowed: GET /pets/{petId}: operation removed after its sunset (Thu, 05 Dec 2030 00:00:00 GMT)',
        'No breaking change against openapi/baseline/openapi-1.0.0.yaml (1.0.0).',
      ]);
      expect(await main(['--head', head], { now: new Date('2030-12-04T00:00:00Z') })).toBe(1);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
