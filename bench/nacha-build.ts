// One NACHA build in a process of its own, so its peak memory is its own: `nacha-build.ts <ours|nach2> <entries>
// <out file>`. Prints one JSON line: seconds, peak RSS and RSS before the build (MiB), bytes written.
import { createWriteStream, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type EntryDetail, streamNachaFile } from '../src/connectors/ach/nacha.js';

const [impl, count, out] = [process.argv[2], Number(process.argv[3]), process.argv[4]!];
const ROUTING = ['021000021', '011000015', '091000019', '121000358', '026009593'];
const ODFI = '09100001';
const EFFECTIVE = new Date(Date.UTC(2026, 10, 23, 12));

/** The same entries for both builders, made one at a time (a cutoff reads them from a cursor the same way). */
function* entries(): Generator<EntryDetail> {
  for (let i = 0; i < count; i++) {
    yield {
      transactionCode: 27,
      rdfiRoutingNumber: ROUTING[i % ROUTING.length]!,
      accountNumber: String(100_000_000 + ((i * 7919) % 899_999_999)),
      amountCents: 100 + ((i * 37) % 100_000),
      individualId: `ID${i}`,
      individualName: `PAYER ${i}`,
      discretionaryData: 'S',
      traceNumber: `${ODFI}${String(i + 1).padStart(7, '0')}`,
    };
  }
}

async function ours(): Promise<void> {
  const chunks = streamNachaFile(
    {
      immediateDestination: '091000019',
      immediateOrigin: '1234567890',
      destinationName: 'SANDBOX BANK',
      originName: 'ACME WIDGETS',
      creationDate: '261121',
      creationTime: '1700',
      fileIdModifier: 'A',
      referenceCode: 'BENCH',
    },
    [
      {
        header: {
          serviceClassCode: 225,
          companyName: 'ACME WIDGETS',
          companyId: '1234567890',
          secCode: 'PPD',
          entryDescription: 'PAYMENT',
          descriptiveDate: '261123',
          effectiveEntryDate: '261123',
          odfiId: ODFI,
        },
        entries: entries(),
      },
    ],
  );
  await pipeline(Readable.from(chunks), createWriteStream(out));
}

async function nach2(): Promise<void> {
  const require = createRequire(import.meta.url);
  const nach = require('nach2');
  const file = new nach.File({
    immediateDestination: '091000019',
    immediateOrigin: '1234567890',
    immediateDestinationName: 'SANDBOX BANK',
    immediateOriginName: 'ACME WIDGETS',
    referenceCode: 'BENCH',
  });
  const batch = new nach.Batch({
    serviceClassCode: '225',
    companyName: 'ACME WIDGETS',
    standardEntryClassCode: 'PPD',
    companyIdentification: '1234567890',
    companyEntryDescription: 'PAYMENT',
    companyDescriptiveDate: '261123',
    effectiveEntryDate: EFFECTIVE,
    originatingDFI: ODFI,
  });
  for (const e of entries()) {
    batch.addEntry(
      new nach.Entry({
        receivingDFI: e.rdfiRoutingNumber,
        DFIAccount: e.accountNumber,
        amount: (e.amountCents / 100).toFixed(2), // the library takes dollars
        idNumber: e.individualId,
        individualName: e.individualName,
        discretionaryData: e.discretionaryData,
        transactionCode: String(e.transactionCode),
      }),
    );
  }
  file.addBatch(batch);
  const text = await new Promise<string>((resolve) => file.generateFile(resolve));
  writeFileSync(out, text);
}

/** @ach/ach: its create() API builds the file object, its formatter stream writes it. */
async function achAch(): Promise<void> {
  const require = createRequire(import.meta.url);
  const ach = require('@ach/ach')();
  const Formatter = require('@ach/ach/lib/transforms/ach-formatter.js');
  const file = ach.create({
    from: { name: 'ACME WIDGETS', fein: '234567890' },
    for: { name: 'SANDBOX BANK', routing: '091000019' },
  });
  const batch = file.ppd({ effectiveDate: '261123', description: 'PAYMENT', date: '261123' });
  for (const e of entries()) {
    batch.debit({
      to: {
        name: e.individualName,
        account: { num: e.accountNumber, type: 'C' },
        routing: e.rdfiRoutingNumber,
        dfi: e.rdfiRoutingNumber.slice(0, 8),
      },
      amount: e.amountCents,
      note: e.discretionaryData,
    });
  }
  const formatter = new Formatter();
  const done = pipeline(formatter, createWriteStream(out));
  formatter.end(file.object);
  await done;
}

const before = process.memoryUsage.rss();
const started = process.hrtime.bigint();
if (impl === 'ours') await ours();
else if (impl === 'nach2') await nach2();
else if (impl === 'ach') await achAch();
else throw new Error(`unknown builder ${impl}`);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
console.log(
  JSON.stringify({
    impl,
    entries: count,
    seconds,
    peakRssMiB: mib(process.resourceUsage().maxRSS * 1024),
    startRssMiB: mib(before),
  }),
);
