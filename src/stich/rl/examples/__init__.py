"""Runnable examples of stich.rl: ``python -m stich.rl.examples.train_policy`` trains a first policy bot."""
