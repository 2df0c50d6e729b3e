"""The core under everything: counting codes into tables (one primitive), joint codes, the
structure value object, folds, a model's declared capabilities. It imports nothing of the
package but its small utilities, so every layer above (data, components, estimation, the
learning passes and engine, the models) may use it.
"""
