import { spawn } from 'child_process';
import { join } from 'path';
import { log } from './log';

/** What each of the suite's Go modules builds (module directory under e2e/, packages). */
export const GO_BUILDS: Array<{ module: string; packages: string[] }> = [
  {
    module: 'k8s',
    packages: [
      'k8s.io/kubernetes/cmd/kube-apiserver',
      'k8s.io/kubernetes/cmd/kube-controller-manager',
      'k8s.io/kubernetes/cmd/kube-scheduler',
      'github.com/akuity/kargo/cmd/controlplane',
      'github.com/argoproj/argo-rollouts/cmd/rollouts-controller',
      'github.com/google/go-containerregistry/cmd/crane',
      'go.etcd.io/etcd/server/v3',
      'helm.sh/helm/v3/cmd/helm',
      './cmd/git-https',
    ],
  },
  {
    module: 'argocd',
    packages: [
      'github.com/argoproj/argo-cd/v3/cmd',
      'sigs.k8s.io/kwok/cmd/kwok',
    ],
  },
];

/** The names `go build -o <dir>/` gives the packages' binaries (the last path element; argo-cd's is `cmd`, etcd's `server`). */
export const BINARY_RENAMES: Record<string, string> = { cmd: 'argocd', server: 'etcd' };

/**
 * Builds the suite's binaries from the pinned Go modules into `bin`, at low priority, printing
 * each package as go compiles it (`go build -v`) every 30 seconds so a cold build is never silent.
 */
export async function buildBinaries(root: string, bin: string): Promise<void> {
  for (const b of GO_BUILDS) {
    const started = Date.now();
    log(`go build (e2e/${b.module}): ${b.packages.join(' ')}`);
    await new Promise<void>((resolve, reject) => {
      const child = spawn('nice', ['-n', '10', 'go', 'build', '-v', '-o', `${bin}/`, ...b.packages], {
        cwd: join(root, 'e2e', b.module),
        env: { ...process.env, GOFLAGS: `${process.env.GOFLAGS ?? ''} -modcacherw`.trim() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let count = 0;
      let last = '';
      const errors: string[] = [];
      const onLine = (line: string) => {
        if (!line) return;
        if (/^[\w.\-/]+$/.test(line)) {
          count++;
          last = line;
        } else {
          errors.push(line);
        }
      };
      let buf = '';
      child.stderr.on('data', (d: Buffer) => {
        buf += d.toString();
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        lines.forEach(onLine);
      });
      child.stdout.on('data', (d: Buffer) => d.toString().split('\n').forEach(onLine));
      const timer = setInterval(() => log(`  e2e/${b.module}: ${count} packages compiled or checked, now ${last}`), 30_000);
      child.on('exit', (code) => {
        clearInterval(timer);
        onLine(buf);
        if (code === 0) {
          log(`  e2e/${b.module} built in ${Math.round((Date.now() - started) / 1000)}s (${count} packages)`);
          resolve();
        } else {
          reject(new Error(`go build in e2e/${b.module} failed (exit ${code}):\n${errors.slice(-40).join('\n')}`));
        }
      });
    });
  }
  const { renameSync, existsSync } = await import('fs');
  for (const [from, to] of Object.entries(BINARY_RENAMES)) {
    if (existsSync(join(bin, from))) renameSync(join(bin, from), join(bin, to));
  }
}
