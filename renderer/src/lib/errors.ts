import type { ContractError } from '../../../main/contract/index.ts';

/** A short heading for an error; its message (the service's own words) goes beneath it. */
export function errorTitle(error: ContractError): string {
  switch (error.code) {
    case 'bad_key':
      return 'The service refused the API key.';
    case 'forbidden':
      return 'The service does not allow this.';
    case 'not_found':
      return 'Not found.';
    case 'bad_request':
      return 'The service refused the request.';
    case 'invalid_request':
      return 'Some fields are not valid.';
    case 'rate_limited':
      return 'Too many requests: the service asks to wait.';
    case 'server_error':
      return 'The service ran into a problem.';
    case 'unreachable':
      return 'The service could not be reached.';
    case 'timeout':
      return 'The service took too long to answer.';
    case 'keychain_unavailable':
      return 'The system keychain is not available.';
    default:
      return 'Something went wrong.';
  }
}
