// Fastify builds a serializer for every response schema of every route while the server starts: about 3 s of CPU for
// this API (fast-json-stringify generates code and sets up an Ajv instance per schema), more than half of a node's
// start. A node that starts fast matters where it hurts: a restart after a crash, a node added under load, every node
// repointed after a failover. So each serializer is built when its route first answers with that status (a few
// milliseconds, once per process) and the start pays for none of them. `compileAll` builds the ones not built yet,
// for a test that proves every schema of the API compiles.
import { type Serializer, type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

export interface LazySerializers {
  /** Fastify's `schemaController.compilersFactory.buildSerializer`. */
  buildSerializer: SerializerFactory;
  /** Builds every serializer not built yet; throws what the first schema that cannot be compiled throws. */
  compileAll: () => number;
}

export function lazySerializers(): LazySerializers {
  const eager = SerializerSelector();
  const unbuilt = new Set<() => Serializer>();
  return {
    buildSerializer(externalSchemas, options) {
      const compile = eager(externalSchemas, options);
      return (route) => {
        let built: Serializer | undefined;
        const build = () => {
          if (!built) {
            built = compile(route);
            unbuilt.delete(build);
          }
          return built;
        };
        unbuilt.add(build);
        return (data) => build()(data);
      };
    },
    compileAll() {
      const count = unbuilt.size;
      for (const build of [...unbuilt]) build();
      return count;
    },
  };
}
