import { defineModule } from '../modules/manifest.js';
import { SandboxAchBank } from './ach/sandbox-bank.js';
import { SandboxCardNetwork } from './card/sandbox-card-network.js';
import { SandboxNetworkConditions } from './card/sandbox-conditions.js';
import { Connectors } from './registry.js';

declare module '../modules/services.js' {
  interface Services {
    /** The card and ACH connectors by name, every call under a deadline. */
    connectors: Connectors;
    /** The sandbox operator's conditions on the simulated card network (undefined in production). */
    sandboxNetwork: SandboxNetworkConditions | undefined;
  }
}

export const connectorsModule = defineModule({
  folder: 'connectors',
  summary: "Connectors to the outside world: card processors and banks (today the sandbox's simulated ones).",
  tables: ['sandbox_card_network', 'sandbox_card_network_conditions', 'sandbox_ach_bank_files'],
  needs: [],
  provides: ['connectors', 'sandboxNetwork'],
  build({ pool, clock, config, sandbox }) {
    // Production never uses a simulator: there, a processor naming one finds no connector (and none can be made).
    const sandboxNetwork = sandbox ? new SandboxNetworkConditions(pool) : undefined;
    const connectors = new Connectors(
      new Map(
        sandbox
          ? [['sandbox-card', new SandboxCardNetwork(pool, clock, config.sandboxCardLatencyMs, sandboxNetwork)]]
          : [],
      ),
      new Map(sandbox ? [['sandbox-ach', new SandboxAchBank(pool, clock)]] : []),
    );
    return { connectors, sandboxNetwork };
  },
});
