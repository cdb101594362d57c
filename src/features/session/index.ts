// What other features may use of the session.
export { handleUnauthorized, loadUser, logIn, logout, session, signIn } from './store';
export { safeNextPage } from './safe-next-page';
