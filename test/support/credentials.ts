import * as crypto from 'crypto';
import { Duration } from 'cdk8s';
import {
  ArgoCdCredentials, DeployFreeze, FreezeOverride, FreezeSchedule, PlatformAppProps, RepositoryCredentials, Verification,
  WebhookReceiver,
} from '../../src';

// Every shape a credential takes when someone pastes one where it does not belong. The values
// are made here, at run time (keys generated, tokens assembled from parts), so that the
// repository itself holds nothing a scanner of Git pushes would take for a real credential.

/** One credential shape: the text a user would paste, and the part of it that is the secret. */
export interface CredentialShape {
  readonly name: string;
  /** What a user pastes (a URL, a key, a header). */
  readonly text: string;
  /** The secret inside `text`: no output may contain it. */
  readonly secret: string;
  /** Whether secretlint's recommended preset has a rule for the shape (its findings are checked against ours). */
  readonly secretlint: boolean;
}

const alnum = (n: number, seed: string) => crypto.createHash('sha512').update(seed).digest('base64').replace(/[^A-Za-z0-9]/g, '').repeat(4).slice(0, n);
const hex = (n: number, seed: string) => crypto.createHash('sha512').update(seed).digest('hex').slice(0, n);

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const ed = crypto.generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const pemBody = (pem: string) => pem.split('\n')[2];

const ghp = `${'gh'}p_${alnum(36, 'ghp')}`;
const pat = `${'github'}_pat_11${alnum(20, 'pat1')}_${alnum(59, 'pat2')}`;
const glpat = `${'gl'}pat-${alnum(20, 'glpat')}`;
const slack = `${'xo'}xb-${hex(12, 's1')}-${hex(13, 's2')}-${alnum(24, 's3')}`;
const slackHook = `https://hooks.${'slack'}.com/services/T${alnum(8, 'h1').toUpperCase()}/B${alnum(8, 'h2').toUpperCase()}/${alnum(24, 'h3')}`;
const npm = `${'np'}m_${alnum(36, 'npm')}`;
const akia = `${'AK'}IA${alnum(16, 'akia').toUpperCase().replace(/[^A-Z0-9]/g, 'Q')}`;
const awsSecret = alnum(40, 'aws-secret');
const jwtPart = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = `${jwtPart({ alg: 'HS256', typ: 'JWT' })}.${jwtPart({ sub: 'ci-bot', iat: 1700000000 })}.${alnum(43, 'jwt-sig')}`;
const password = `Pw-${alnum(14, 'password')}`;
const classic = hex(40, 'classic-token');

/** The shapes, each with the secret no output may contain. */
export const CREDENTIAL_SHAPES: CredentialShape[] = [
  { name: 'user:password in a URL', text: `https://alice:${password}@github.com/acme/releases.git`, secret: password, secretlint: true },
  { name: 'a token as the user of a URL', text: `https://${classic}@github.com/acme/releases.git`, secret: classic, secretlint: false },
  { name: 'user:token@host without a scheme', text: `alice:${password}@registry.acme.example/dockerhub`, secret: password, secretlint: false },
  { name: 'a token in a query string', text: `https://gitlab.acme.example/acme/x.git?private_token=${glpat}`, secret: glpat, secretlint: false },
  { name: 'a signature in a pre-signed URL', text: `https://acme.blob.core.windows.net/charts/x.tgz?sv=2024-01-01&sig=${alnum(44, 'sas')}`, secret: alnum(44, 'sas'), secretlint: false },
  { name: 'an RSA private key (PEM)', text: rsa.privateKey, secret: pemBody(rsa.privateKey), secretlint: true },
  { name: 'an EC private key (PKCS#8 PEM)', text: ec.privateKey, secret: pemBody(ec.privateKey), secretlint: true },
  { name: 'an Ed25519 private key (PEM, one line)', text: ed.privateKey.replace(/\n/g, ' '), secret: pemBody(ed.privateKey), secretlint: false },
  { name: 'a private key, base64 (as in a kubeconfig)', text: Buffer.from(rsa.privateKey).toString('base64'), secret: Buffer.from(rsa.privateKey).toString('base64').slice(0, 40), secretlint: false },
  { name: 'a GitHub token (ghp_)', text: ghp, secret: ghp, secretlint: true },
  { name: 'a GitHub fine-grained token (github_pat_)', text: pat, secret: pat, secretlint: false },
  { name: 'a GitLab token (glpat-)', text: glpat, secret: glpat, secretlint: false },
  { name: 'a Slack token (xoxb-)', text: slack, secret: slack, secretlint: true },
  { name: 'a Slack webhook URL', text: slackHook, secret: slackHook.split('/services/')[1], secretlint: true },
  { name: 'an npm token', text: npm, secret: npm, secretlint: true },
  { name: 'an AWS access key id (AKIA)', text: akia, secret: akia, secretlint: false },
  { name: 'an AWS secret access key, assigned', text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret, secretlint: true },
  { name: 'a JSON Web Token', text: jwt, secret: jwt.split('.')[2], secretlint: false },
  { name: 'a bearer token in a header', text: `Authorization: Bearer ${alnum(32, 'bearer')}`, secret: alnum(32, 'bearer'), secretlint: false },
  { name: 'a password, assigned', text: `password=${password}`, secret: password, secretlint: false },
];

/** Free-text fields of an app a credential can be pasted into, each as the props that put `text` there. */
export const APP_FIELDS: Array<[string, (text: string) => Partial<PlatformAppProps>]> = [
  ['owner contact', t => ({ owner: { team: 'payments', contact: t } })],
  ['Argo CD managed Secret source', t => ({ releaseRepoArgoCdCredentials: ArgoCdCredentials.managedSecret({ source: t }) })],
  ['Argo CD GitHub App source', t => ({ releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({ appId: 1, installationId: 2, source: t }) })],
  ['Kargo managed Secret source', t => ({ releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: t }) })],
  ['an HTTP check header', t => ({ verification: [Verification.http({ name: 'probe', url: 'https://x.acme.example/health', headers: { 'X-Note': t } })] })],
  ['a webhook receiver\'s repoUrls', t => ({ webhookReceivers: [WebhookReceiver.github({ name: 'own', secretName: 'own-webhook', repoUrls: [t] })] })],
  ['an exemption\'s justification', t => ({ exemptions: [{ ruleId: 'prod-gate', justification: `agreed with the platform team: ${t}` }] })],
  ['a freeze override', t => ({ freezeOverride: FreezeOverride.of({ by: 'alice@acme.example', reason: `hotfix ${t}` }) })],
  ['a freeze reason', t => ({ freezes: [new DeployFreeze({ reason: `freeze ${t}`, schedule: FreezeSchedule.cron('0 0 24 12 *', Duration.days(1)) })] })],
  ['an HTTP check URL', t => ({ verification: [Verification.http({ name: 'probe', url: `https://x.acme.example/health?${t}` })] })],
];
