/**
 * The services of a running node, by name. Nothing is listed here: each module's manifest (`<module>/module.ts`) adds
 * what it provides to this interface (declaration merging), so a node's services are exactly what the modules of the
 * module list provide, and a module that needs a service no module provides does not compile.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the module manifests
export interface Services {}

export type ServiceName = keyof Services;
