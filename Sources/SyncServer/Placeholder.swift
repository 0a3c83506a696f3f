import Hummingbird
import Storage
