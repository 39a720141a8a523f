// tsyringe needs the Reflect metadata polyfill loaded before it is; importing tsyringe only from here
// guarantees that order for every service module, whichever entry point loads it first.
import 'reflect-metadata'
export { inject, injectable } from 'tsyringe'
/** For the composition root (compose.ts, wiring.ts) only. */
export { container, instancePerContainerCachingFactory, Lifecycle, type DependencyContainer } from 'tsyringe'
