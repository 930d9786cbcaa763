import { dictionary } from '../platform/dictionary.js';
import type { Purge } from '../platform/jobs/maintenance.js';
import type { QueueDefinition, ScheduleDefinition } from '../platform/jobs/runner.js';
import type { AnyModule, Platform, Worker } from './manifest.js';
import type { Services } from './services.js';

export interface Composed {
  services: Services;
  queues: QueueDefinition[];
  schedules: ScheduleDefinition[];
  workers: Worker[];
  purges: Purge[];
}

/**
 * Builds every module's services in the list's order, each from the services it names, and gathers what the node
 * runs of them. A module that needs a service no earlier module provided, or provides one twice, stops the node at
 * start (the module list is out of order), before anything is served.
 */
export async function composeModules(modules: readonly AnyModule[], platform: Platform): Promise<Composed> {
  const services = dictionary<unknown>();
  const provider = new Map<string, string>();
  for (const module of modules) {
    const missing = module.needs.filter((name: string) => !provider.has(name));
    if (missing.length > 0) {
      throw new Error(`Module ${module.folder} needs ${missing.join(', ')}, which no module before it provides`);
    }
    const needed = Object.fromEntries(module.needs.map((name: string) => [name, services[name]]));
    const built: Record<string, unknown> = module.build ? await module.build(platform, needed) : {};
    for (const name of module.provides as string[]) {
      if (provider.has(name)) throw new Error(`${module.folder} provides ${name}, which ${provider.get(name)} did`);
      if (!(name in built)) throw new Error(`${module.folder} says it provides ${name} but did not build it`);
      provider.set(name, module.folder);
      services[name] = built[name];
    }
  }
  const composed: Composed = {
    services: services as unknown as Services,
    queues: [],
    schedules: [],
    workers: [],
    purges: [],
  };
  for (const module of modules) {
    const own = scoped(services, module);
    for (const parts of platform.sandbox && module.sandbox ? [module, module.sandbox] : [module]) {
      composed.queues.push(...(parts.queues?.(own, platform) ?? []));
      composed.schedules.push(...(parts.schedules ?? []));
      if (parts.worker) composed.workers.push(parts.worker(own, platform));
      composed.purges.push(...(parts.purges?.(own, platform) ?? []));
    }
  }
  return composed;
}

/** The services a module's routes, queues and workers see: those it needs and those it provides. */
export function scoped(services: object, module: AnyModule): never {
  const all = services as Record<string, unknown>;
  return Object.fromEntries([...module.needs, ...module.provides].map((name: string) => [name, all[name]])) as never;
}
