import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

/** A certificate and key pair on disk. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * The suite's certificates, made with openssl: one CA, one serving certificate for every
 * loopback server (API servers, webhooks, Git, the registry), client certificates for the
 * identities that talk to the API servers, and the key that signs ServiceAccount tokens.
 */
export class Pki {
  public readonly ca: KeyPair;
  public readonly serving: KeyPair;
  public readonly serviceAccountKey: string;
  public readonly serviceAccountPub: string;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.ca = { cert: join(dir, 'ca.crt'), key: join(dir, 'ca.key') };
    if (!existsSync(this.ca.cert)) {
      openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3',
        '-subj', '/CN=cdk8s-gitops-platform e2e CA', '-keyout', this.ca.key, '-out', this.ca.cert,
        '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    }
    this.serving = this.issue('serving', '/CN=localhost', ['DNS:localhost', 'IP:127.0.0.1'], 'serverAuth');
    this.serviceAccountKey = join(dir, 'sa.key');
    this.serviceAccountPub = join(dir, 'sa.pub');
    if (!existsSync(this.serviceAccountKey)) {
      openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', this.serviceAccountKey);
      openssl('pkey', '-in', this.serviceAccountKey, '-pubout', '-out', this.serviceAccountPub);
    }
  }

  /** A client certificate: the API servers take CN as the user name and each O as a group. */
  public client(name: string, user: string, groups: string[] = []): KeyPair {
    const subject = `/CN=${user}${groups.map(g => `/O=${g}`).join('')}`;
    return this.issue(`client-${name}`, subject, [], 'clientAuth');
  }

  private issue(name: string, subject: string, sans: string[], usage: string): KeyPair {
    const pair = { cert: join(this.dir, `${name}.crt`), key: join(this.dir, `${name}.key`) };
    if (existsSync(pair.cert)) return pair;
    const csr = join(this.dir, `${name}.csr`);
    const ext = join(this.dir, `${name}.ext`);
    writeFileSync(ext, [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${usage}`,
      ...sans.length > 0 ? [`subjectAltName=${sans.join(',')}`] : [],
    ].join('\n') + '\n');
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', subject, '-keyout', pair.key, '-out', csr);
    openssl('x509', '-req', '-in', csr, '-CA', this.ca.cert, '-CAkey', this.ca.key, '-CAcreateserial', '-days', '3', '-extfile', ext, '-out', pair.cert);
    return pair;
  }
}

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
