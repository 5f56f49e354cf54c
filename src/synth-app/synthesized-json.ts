import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { PlatformSynthApp } from './platform-synth-app';

/**
 * The document `app`'s last `synth()` wrote for `obj` (what `obj.toJson()` returned then), or
 * undefined when `app` is no PlatformSynthApp or wrote no such object. For what is read after
 * synthesis, like the controller load of the fleet report, which would otherwise render every
 * object a second time; the records are the app's until its next `synth()`.
 * @internal
 */
export function synthesizedJson(app: IConstruct, obj: ApiObject): unknown {
  return app instanceof PlatformSynthApp ? app._synthesized(obj) : undefined;
}
