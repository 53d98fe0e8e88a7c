export default () => ({ big: 10n });
