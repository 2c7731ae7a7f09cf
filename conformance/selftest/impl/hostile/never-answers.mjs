#!/usr/bin/env node
// A hostile implementation: it accepts every request and never answers (the connection stays open).
// Usage: node never-answers.mjs --port PORT
import { serve } from './serve.mjs';

serve(() => {});
