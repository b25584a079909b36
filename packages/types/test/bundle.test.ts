import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundleJsonPath, bundleYamlPath, description } from './description.js';

describe('the bundled description', () => {
  it('is valid OpenAPI 3.1 against the official schema', async () => {
    const result = await new Validator().validate(bundleJsonPath);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(description.openapi).toBe('3.1.0');
  });

  it('says the same in its YAML and JSON forms', () => {
    expect(parse(readFileSync(bundleYamlPath, 'utf8'))).toEqual(description);
  });

  it('is at version 1.1.0 with contact and licence', () => {
    expect(description.info.version).toBe('1.1.0');
    expect(description.info.contact.email).toMatch(/@/);
    expect(description.info.license.identifier).toBe('MIT');
  });

  it('names the production and staging servers, both under /v1 and public', () => {
    expect(description.servers).toEqual([
      { url: 'https://api.petstore.example/v1', description: 'Production', 'x-internal': false },
      {
        url: 'https://staging.api.petstore.example/v1',
        description: 'Staging',
        'x-internal': false,
      },
    ]);
  });

  it('documents what the specification leaves open', () => {
    const text: string = description.info.description;
    for (const topic of [
      '## Authentication',
      '## Rate limits',
      '### Exceeding the limit',
      '### Temporary ban',
      '## Pagination',
      '## Conditional requests',
      '## Retrying a create safely',
      '## HTTP semantics',
      '**Order of checks**',
      '## Browsers (CORS)',
      '## Strings',
      '## Errors',
      '## Versioning and deprecation',
      '## Open questions',
      'GET /store/orders',
      'experimental',
      'exponential backoff',
      'draft-ietf-httpapi-ratelimit-headers-10',
      'draft-ietf-httpapi-idempotency-key-header-07',
      'CORS_ORIGINS',
      'IDEMPOTENCY_KEY_TTL_SECONDS',
    ]) {
      expect(text).toContain(topic);
    }
    for (const [plan, perMinute, perDay] of [
      ['Free', '60', '1000'],
      ['Pro', '300', '10000'],
      ['Business', '1000', '100000'],
      ['Enterprise', 'custom', 'custom'],
    ]) {
      expect(text).toMatch(new RegExp(`\\| ${plan} +\\| ${perMinute} +\\| ${perDay} +\\|`));
    }
  });
});
