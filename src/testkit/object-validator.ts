import Ajv, { ValidateFunction } from 'ajv';
import { findingsFromAjv } from './ajv-findings';
import { createCrdAjv } from './ajv-setup';
import { validateArgoCdRules } from './argocd-rules';
import { coreKinds, CoreKind, validateCoreRules } from './core-kinds';
import { CrdCatalog, CrdKind } from './crd-catalog';
import { Finding, normalizeFindings, show } from './finding';
import { KargoJsonSchemas } from './kargo-json-schemas';
import { validateKargoRules } from './kargo-rules';
import { isPlainObject, NameRule, validateObjectMeta } from './object-meta';
import { STEP_LISTS, validatePromotionSteps } from './promotion-steps';
import { SchemaBundle } from './schema-bundle';
import { findSecretMaterial } from './secret-guard';
import { shareLargeSubschemas, toJsonSchema } from './structural-schema';
import { validateSubscriptions } from './warehouse-subscriptions';

const KARGO_GROUP = 'kargo.akuity.io';
const ARGO_GROUP = 'argoproj.io';

interface ResolvedKind {
  readonly namespaced: boolean;
  readonly nameRule: NameRule;
  readonly validate: ValidateFunction | Error;
}

/** Validates single objects against everything known about their kind. Holds the compiled schemas. */
export class ObjectValidator {
  private readonly ajv: Ajv = createCrdAjv();
  private readonly catalog: CrdCatalog;
  private readonly kargoSchemas: KargoJsonSchemas;
  private readonly core = new Map<string, CoreKind>();
  private readonly coreValidators = new Map<string, ValidateFunction | Error>();

  constructor(bundle: SchemaBundle) {
    this.catalog = new CrdCatalog(bundle.crds, this.ajv);
    this.kargoSchemas = new KargoJsonSchemas(bundle.kargoSchemas);
    for (const kind of coreKinds(() => this.embeddedJobSpec())) {
      this.core.set(`${kind.apiVersion}/${kind.kind}`, kind);
    }
  }

  public validate(obj: unknown): Finding[] {
    if (!isPlainObject(obj)) {
      return [{ path: '', message: `a manifest must be an object, got ${show(obj)}` }];
    }
    const { apiVersion, kind } = obj;
    if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
      return [{ path: '', message: `object has no apiVersion/kind (apiVersion ${show(apiVersion)}, kind ${show(kind)})` }];
    }
    const resolved = this.resolve(apiVersion, kind);
    if (typeof resolved === 'string') {
      return [{ path: '', message: resolved }];
    }
    const findings: Finding[] = [];
    if (resolved.validate instanceof Error) {
      findings.push({ path: '', message: resolved.validate.message });
    } else if (!resolved.validate(obj)) {
      findings.push(...findingsFromAjv(resolved.validate.errors, { basePath: '', data: obj }));
    }
    findings.push(...validateObjectMeta(obj.metadata, resolved));
    if (obj.status !== undefined) {
      findings.push({ path: '/status', message: 'status must not be set in a manifest (controllers write it)' });
    }
    findings.push(...this.kindRules(obj, apiVersion));
    return normalizeFindings(findings);
  }

  private kindRules(obj: Record<string, any>, apiVersion: string): Finding[] {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    if (group === KARGO_GROUP) {
      const findings = validateKargoRules(obj);
      const stepList = STEP_LISTS[obj.kind];
      if (stepList) {
        findings.push(...validatePromotionSteps(dig(obj, stepList), '/' + stepList.join('/'), this.kargoSchemas));
      }
      if (obj.kind === 'Warehouse') {
        findings.push(...validateSubscriptions(obj.spec?.subscriptions, '/spec/subscriptions', this.kargoSchemas));
      }
      return findings;
    }
    if (group === ARGO_GROUP) {
      return validateArgoCdRules(obj);
    }
    if (apiVersion === 'v1' && obj.kind === 'Secret') {
      return findSecretMaterial(obj);
    }
    return validateCoreRules(obj);
  }

  /** The kind's rules, or why there are none. */
  private resolve(apiVersion: string, kind: string): ResolvedKind | string {
    const core = this.core.get(`${apiVersion}/${kind}`);
    if (core) {
      return { namespaced: core.namespaced, nameRule: core.nameRule, validate: this.coreValidator(core) };
    }
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    const crd = this.catalog.find(group, kind);
    if (!crd) {
      return `no pinned schema for ${apiVersion}/${kind}`;
    }
    const validate = this.catalog.validator(crd, version);
    if (!validate) {
      return `no pinned schema for ${apiVersion}/${kind} (the pinned crd serves ${this.catalog.versions(crd).map((v) => `${group}/${v}`).join(', ')})`;
    }
    return { namespaced: crd.namespaced, nameRule: nameRuleOf(crd), validate };
  }

  private coreValidator(core: CoreKind): ValidateFunction | Error {
    const key = `${core.apiVersion}/${core.kind}`;
    let validate = this.coreValidators.get(key);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(shareLargeSubschemas(core.schema()));
      } catch (err) {
        validate = new Error(`cannot compile the schema of ${key}: ${(err as Error).message}`);
      }
      this.coreValidators.set(key, validate);
    }
    return validate;
  }

  /** Argo Rollouts' job metric embeds batch/v1 JobSpec: the closest thing to a pinned Job schema. */
  private embeddedJobSpec(): object | undefined {
    const crd = this.catalog.find(ARGO_GROUP, 'AnalysisTemplate');
    const schema = crd ? this.catalog.openApiSchema(crd, 'v1alpha1') : undefined;
    const jobSpec = schema?.properties?.spec?.properties?.metrics?.items?.properties?.provider?.properties?.job?.properties?.spec;
    return jobSpec ? toJsonSchema(jobSpec) : undefined;
  }
}

function nameRuleOf(crd: CrdKind): NameRule {
  // A Kargo Project becomes a Namespace of the same name.
  return crd.group === KARGO_GROUP && crd.kind === 'Project' ? NameRule.DNS_LABEL : NameRule.DNS_SUBDOMAIN;
}

function dig(obj: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), obj);
}
