"""Admin registrations arrive together with the models."""

from __future__ import annotations
