// `npm run contracts:publish [-- --dry-run]`: publishes contracts/pacts to the Pact Broker as
// version {git sha} on branch {git branch}. Needs PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN.
import {
  brokerFrom,
  publishArgs,
  Refusal,
  requireCommittedPacts,
  versionFrom,
} from './support/broker';
import { git, runBroker } from './support/run-broker';

runBroker((args) => {
  if (args.length > 0) throw new Refusal(`unknown arguments: ${args.join(' ')}`);
  const broker = brokerFrom(process.env);
  const version = versionFrom(process.env, git);
  requireCommittedPacts(git);
  return publishArgs(broker, version);
});
