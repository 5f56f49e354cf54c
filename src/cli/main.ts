#!/usr/bin/env node
import { run } from './run';
import { redactSecrets } from '../util/redact';

// The `cdk8s-gitops-platform` command (package.json `bin`); see run.ts for the commands.
run(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
}).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(redactSecrets(`error: ${(e as Error).message}\n`));
  process.exitCode = 2;
});
