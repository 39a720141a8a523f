// shotstack-sdk ships no types: the test drives it as its JavaScript users do.
declare module 'shotstack-sdk'
