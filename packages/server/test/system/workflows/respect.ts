import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverDir } from '../../support/server-process.js';

/** The repository root, where redocly.yaml and openapi/workflows/ live. */
export const repoRoot = path.resolve(serverDir, '../..');
/** The Arazzo workflows of the description. */
export const workflowsDir = path.join(repoRoot, 'openapi/workflows');

export interface RespectRun {
  /** The CLI's exit code: 0 when every step met its success criteria. */
  code: number;
  /** What the CLI printed (verbose: every request and check). */
  output: string;
  /** Respect's JSON log (`--json-output`), parsed. */
  log: unknown;
}

/** One executed step of Respect's JSON log. */
export interface RespectStep {
  stepId: string;
  response: { statusCode: number; headers: Record<string, string>; body: unknown };
}

/** The executed steps of one workflow in Respect's JSON log. */
export function executedSteps(log: unknown, workflowId: string): RespectStep[] {
  const files = (log as { files: Record<string, { executedWorkflows: unknown[] }> }).files;
  const workflows = Object.values(files).flatMap((file) => file.executedWorkflows) as {
    workflowId: string;
    executedSteps: RespectStep[];
  }[];
  return workflows.find((w) => w.workflowId === workflowId)?.executedSteps ?? [];
}

/**
 * Runs `redocly respect` (the workspace's pinned CLI, telemetry off) on one Arazzo file
 * against `baseUrl`, which replaces the description's servers for the `petstore` source;
 * `workflows` limits the run to those workflow ids.
 */
export async function respect(
  file: string,
  baseUrl: string,
  inputs: Record<string, string>,
  workflows: string[] = [],
): Promise<RespectRun> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'petstore-respect-'));
  const jsonLog = path.join(scratch, 'respect.json');
  const args = [
    path.join(repoRoot, 'scripts/redocly.mjs'),
    'respect',
    path.join(workflowsDir, file),
    '--server',
    `petstore=${baseUrl}`,
    '--input',
    // JSON, not `name=value,…`: Respect splits that form on every `=`, which breaks URLs.
    JSON.stringify(inputs),
    '--json-output',
    jsonLog,
    '--verbose',
    ...(workflows.length > 0 ? ['--workflow', ...workflows] : []),
  ];
  try {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
        (error, stdout, stderr) => {
          const exit = error && typeof error.code === 'number' ? error.code : error ? 1 : 0;
          resolve({ code: exit, output: `${stdout}${stderr}` });
        },
      );
    });
    const log: unknown = JSON.parse(await readFile(jsonLog, 'utf8').catch(() => 'null'));
    return { code, output, log };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
