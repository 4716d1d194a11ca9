"""Volume I labs (Foundations): one module ``v1_NN.py`` per lab."""
