import { defineModule } from '../modules/manifest.js';
import { SandboxAchBank } from './ach/sandbox-bank.js';
import { SftpDropBox } from './ach/sftp/sftp-drop-box.js';
import { AdyenConnector } from './card/adyen/adyen-connector.js';
import type { CardConnector } from './card/card-connector.js';
import { SandboxCardNetwork } from './card/sandbox-card-network.js';
import { SandboxNetworkConditions } from './card/sandbox-conditions.js';
import { cardCallMetrics } from './connector-metrics.js';
import { BANK_TIMEOUT_MS, Connectors } from './registry.js';

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
  summary:
    "Connectors to the outside world: card processors (Adyen; the sandbox's simulated network) and banks (NACHA files over SFTP; the sandbox's bank).",
  tables: ['sandbox_card_network', 'sandbox_card_network_conditions', 'sandbox_ach_bank_files'],
  needs: ['processors'],
  provides: ['connectors', 'sandboxNetwork'],
  build({ pool, clock, config, sandbox, onStop, metrics }, { processors }) {
    const adyen = new AdyenConnector(processors, `${config.publicBaseUrl}/connectors/adyen/return`, () => clock.now());
    onStop(() => adyen.close());
    // Production never uses a simulator: there, a processor naming one finds no connector (and none can be made).
    const sandboxNetwork = sandbox ? new SandboxNetworkConditions(pool) : undefined;
    const connectors = new Connectors(
      new Map<string, CardConnector>([
        ['adyen', adyen],
        ...(sandbox
          ? [
              [
                'sandbox-card',
                new SandboxCardNetwork(pool, clock, config.sandboxCardLatencyMs, sandboxNetwork),
              ] as const,
            ]
          : []),
      ]),
      new Map(sandbox ? [['sandbox-ach', new SandboxAchBank(pool, clock)]] : []),
      { cardMs: config.connectorTimeoutMs, bankMs: BANK_TIMEOUT_MS },
      new Map([['nacha-sftp', new SftpDropBox(processors)]]),
      cardCallMetrics(metrics),
    );
    return { connectors, sandboxNetwork };
  },
});
