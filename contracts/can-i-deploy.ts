// `npm run contracts:can-i-deploy [-- --to-environment NAME] [pact-broker options]`: asks the
// Pact Broker whether this commit of the storefront may go to the environment (PACT_ENVIRONMENT,
// default production). Needs PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN.
import { brokerFrom, canIDeployArgs, environmentFrom, versionFrom } from './support/broker';
import { git, runBroker } from './support/run-broker';

runBroker((args) => {
  const broker = brokerFrom(process.env);
  const { environment, rest } = environmentFrom(args, process.env);
  return canIDeployArgs(broker, versionFrom(process.env, git), environment, rest);
});
