"""Tests of one study (a package, so that test module names may repeat across studies)."""
