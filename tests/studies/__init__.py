"""The tests of each study, one package per study."""
